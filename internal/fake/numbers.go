package fake

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// maxSafe bounds generated integers: beyond 2^53 a JSON number no longer
// survives a float64 (what kin-openapi validates with, and JavaScript).
const maxSafe = 1<<53 - 1

// numberPlan chooses the range values are drawn from: the name's usual range
// (a year, an age, a price…) or 1–1000, cut to the schema's bounds; when
// the two do not meet, the bounds (and a stretch beyond an open one).
func numberPlan(f *facts, integer bool, h *hint) *numPlan {
	p := &numPlan{
		integer: integer, dec: 2,
		lo: f.lo, hi: f.hi, hasLo: f.hasLo, hasHi: f.hasHi, loEx: f.loEx, hiEx: f.hiEx,
		mult: f.mult,
	}
	from, to := 1.0, 1000.0
	if !integer {
		from = 0
	}
	if h != nil && h.num != nil {
		from, to, p.dec = h.num.from, h.num.to, h.num.dec
	}
	blo, bhi := float64(-maxSafe), float64(maxSafe)
	if f.hasLo {
		blo = f.lo
		if integer {
			blo = math.Ceil(f.lo)
			if f.loEx && blo == f.lo {
				blo++
			}
		}
	}
	if f.hasHi {
		bhi = f.hi
		if integer {
			bhi = math.Floor(f.hi)
			if f.hiEx && bhi == f.hi {
				bhi--
			}
		}
	}
	blo, bhi = max(blo, -maxSafe), min(bhi, maxSafe)
	if integer && f.format == "int32" {
		blo, bhi = max(blo, math.MinInt32), min(bhi, math.MaxInt32)
	}
	a, b := max(from, blo), min(to, bhi)
	if a > b {
		width := to - from
		switch {
		case f.hasLo && f.hasHi:
			a, b = blo, bhi
		case f.hasLo:
			a, b = blo, min(blo+width, bhi)
		default:
			a, b = max(bhi-width, blo), bhi
		}
	}
	p.from, p.to = a, b
	if !integer {
		// Enough decimals to land inside a narrow range.
		for p.dec < 12 && (b-a)*math.Pow10(p.dec) < 10 {
			p.dec++
		}
	}
	return p
}

// ok reports whether v satisfies the schema's bounds and multipleOf, as
// kin-openapi v0.152.0 checks them.
func (p *numPlan) ok(v float64) bool {
	if p.hasLo && (v < p.lo || p.loEx && v == p.lo) || p.hasHi && (v > p.hi || p.hiEx && v == p.hi) {
		return false
	}
	for _, m := range p.mult {
		if !multipleOK(v, m) {
			return false
		}
	}
	return true
}

func (st *state) integer(p *numPlan) int64 {
	lo, hi := int64(math.Ceil(p.from)), int64(math.Floor(p.to))
	if lo > hi {
		return lo // empty range: unsatisfiable bounds
	}
	if len(p.mult) == 0 {
		return int64(st.f.IntRange(int(lo), int(hi)))
	}
	step := int64(1)
	for _, m := range p.mult {
		s := integerStep(m)
		if s == 0 {
			continue
		}
		step = lcm(step, s)
	}
	klo, khi := ceilDiv(lo, step), floorDiv(hi, step)
	if klo > khi {
		// No multiple in the usual range: look within the schema's bounds.
		blo, bhi := int64(-maxSafe), int64(maxSafe)
		if p.hasLo {
			blo = int64(math.Ceil(p.lo))
		}
		if p.hasHi {
			bhi = int64(math.Floor(p.hi))
		}
		klo, khi = ceilDiv(blo, step), floorDiv(bhi, step)
		if klo > khi {
			return lo
		}
		khi = min(khi, klo+1000)
	}
	for try := 0; ; try++ {
		v := int64(st.f.IntRange(int(klo), int(khi))) * step
		if try == retries || p.ok(float64(v)) {
			return v
		}
	}
}

// integerStep is the smallest positive integer that is a multiple of m (m
// itself when whole), or 0 when there is none below 10,000.
func integerStep(m float64) int64 {
	if m == math.Trunc(m) && m >= 1 && m <= maxSafe {
		return int64(m)
	}
	for s := int64(1); s <= 10000; s++ {
		if multipleOK(float64(s), m) {
			return s
		}
	}
	return 0
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int64) int64 {
	l := a / gcd(a, b) * b
	if l <= 0 || l > maxSafe {
		return a
	}
	return l
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

func (st *state) number(p *numPlan) float64 {
	if len(p.mult) > 0 {
		return st.multiple(p)
	}
	for try := 0; try < retries; try++ {
		raw := p.from + st.f.Float64()*(p.to-p.from)
		v := round(raw, p.dec)
		if p.ok(v) {
			return v + 0 // never -0, which would be written "-0.0"
		}
		if p.ok(raw) {
			return raw
		}
	}
	return (p.from + p.to) / 2
}

// multiple draws a multiple of the first multipleOf, written with no more
// decimals than it has when that stays a multiple (7 × 0.1 is
// 0.7000000000000001 in floating point; 0.7 passes the check too).
func (st *state) multiple(p *numPlan) float64 {
	m := p.mult[0]
	klo, khi := math.Ceil(p.from/m), math.Floor(p.to/m)
	if klo > khi {
		klo, khi = math.Ceil(p.lo/m), math.Floor(p.hi/m)
		if !p.hasLo {
			klo = khi - 1000
		}
		if !p.hasHi {
			khi = klo + 1000
		}
	}
	if klo > khi || math.IsInf(klo, 0) || math.IsInf(khi, 0) || khi-klo > maxSafe {
		return p.from
	}
	dec := decimals(m)
	var v float64
	for try := 0; try <= retries; try++ {
		k := klo + float64(st.f.IntRange(0, int(khi-klo)))
		v = k * m
		if r := round(v, dec); p.ok(r) {
			return r + 0
		}
		if p.ok(v) {
			return v + 0
		}
	}
	return v
}

// decimals is how many decimals m is written with (at most 12).
func decimals(m float64) int {
	s := strconv.FormatFloat(m, 'f', -1, 64)
	_, frac, ok := strings.Cut(s, ".")
	if !ok {
		return 0
	}
	return min(len(frac), 12)
}

func round(v float64, dec int) float64 {
	if dec >= 15 {
		return v
	}
	p := math.Pow10(dec)
	r := math.Round(v*p) / p
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return v
	}
	return r
}

// multipleOK is kin-openapi v0.152.0's multipleOf check (multipleOfFailure
// in schema_3point0_validator.go): exact rationals, with a slack of 2^-51 of
// the value, so that what floating point arithmetic makes of k × m passes.
func multipleOK(value, m float64) bool {
	if math.IsNaN(m) || math.IsInf(m, 0) || math.IsNaN(value) || math.IsInf(value, 0) {
		return true
	}
	if m <= 0 {
		return false
	}
	v := new(big.Rat).SetFloat64(value)
	mr := new(big.Rat).SetFloat64(m)
	q := new(big.Rat).Quo(v, mr)
	if q.IsInt() {
		return true
	}
	floor := new(big.Int).Div(q.Num(), q.Denom())
	var distance *big.Rat
	for _, k := range []*big.Int{floor, new(big.Int).Add(floor, big.NewInt(1))} {
		gap := new(big.Rat).Sub(v, new(big.Rat).Mul(new(big.Rat).SetInt(k), mr))
		gap.Abs(gap)
		if distance == nil || gap.Cmp(distance) < 0 {
			distance = gap
		}
	}
	slack := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 51))
	tolerance := new(big.Rat).Mul(new(big.Rat).Abs(v), slack)
	return distance.Cmp(tolerance) <= 0
}
