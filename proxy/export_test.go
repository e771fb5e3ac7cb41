package proxy

// CheckMemory is the bytes the exchanges in flight keep for the checks now,
// and the most they kept at once.
func (p *Proxy) CheckMemory() (used, peak int64) {
	return p.checkMem.used.Load(), p.checkMem.peak.Load()
}
