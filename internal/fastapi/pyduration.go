package fastapi

import (
	"math"
	"strconv"
)

// This file is pydantic-core's timedelta validation (format duration):
// speedate's Duration parser for a string (ISO 8601 "P1DT2H", "HH:MM:SS",
// "1 day, 02:00:00"), seconds for a number, and the ISO 8601 form
// model_dump(mode="json") writes ("P1DT2H3M4.5S").

const (
	sdDurationInvalidNumber   sdError = "invalid digit in duration"
	sdDurationTRepeated       sdError = "`t` character repeated in duration"
	sdDurationInvalidFrac     sdError = "quantity fraction invalid in duration"
	sdDurationInvalidTime     sdError = "quantity invalid in time part of duration"
	sdDurationInvalidDate     sdError = "quantity invalid in date part of duration"
	sdDurationInvalidDays     sdError = "\"day\" identifier in duration not correctly formatted"
	sdDurationValueTooLarge   sdError = "a numeric value in the duration is too large"
	sdDurationHourTooLarge    sdError = "durations may not exceed 999,999,999 hours"
	sdDurationDaysTooLarge    sdError = "durations may not exceed 999,999,999 days"
	msgTimeDeltaType                  = "Input should be a valid timedelta"
	maxDurationDays                   = 999_999_999
	secondsPerDay                     = 86_400
	durationNaN               sdError = "NaN values not permitted"
	msgTimeDeltaParsingPrefix         = "Input should be a valid timedelta, "
)

// sdDuration is speedate's Duration: a sign and a magnitude.
type sdDuration struct {
	positive           bool
	day, second, micro uint64
}

func (d *sdDuration) normalize() sdError {
	if d.micro >= 1_000_000 {
		d.second += d.micro / 1_000_000
		d.micro %= 1_000_000
	}
	if d.second >= secondsPerDay {
		d.day += d.second / secondsPerDay
		d.second %= secondsPerDay
	}
	if d.day > maxDurationDays {
		return sdDurationDaysTooLarge
	}
	return ""
}

// parseDuration is Duration::parse_bytes_with_config.
func parseDuration(b string) (sdDuration, sdError) {
	positive := true
	if b != "" && b[0] == '-' {
		positive, b = false, b[1:]
	} else if b != "" && b[0] == '+' {
		b = b[1:]
	}
	var d sdDuration
	var err sdError
	switch {
	case b == "":
		return d, sdTooShort
	case b[0] == 'P':
		d, err = parseISODuration(b[1:])
	case containsByte(b, 'd') || containsByte(b, 'D') || len(b) < 5:
		d, err = parseDaysTime(b)
	default:
		d, err = parseDurationTime(b)
	}
	if err != "" {
		return d, err
	}
	d.positive = positive
	return d, d.normalize()
}

// u32 arithmetic with speedate's overflow error.
func u32Add(a, b uint64) (uint64, bool) { return a + b, a+b <= math.MaxUint32 }
func u32Mul(a, b uint64) (uint64, bool) { return a * b, a*b <= math.MaxUint32 }

func durationNumber(b string) (uint64, int, sdError) {
	if b == "" || b[0] < '0' || b[0] > '9' {
		return 0, 0, sdDurationInvalidNumber
	}
	v := uint64(b[0] - '0')
	i := 1
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		var ok bool
		if v, ok = u32Mul(v, 10); !ok {
			return 0, 0, sdDurationValueTooLarge
		}
		if v, ok = u32Add(v, uint64(b[i]-'0')); !ok {
			return 0, 0, sdDurationValueTooLarge
		}
	}
	return v, i, ""
}

func durationNumberFrac(b string) (uint64, float64, bool, int, sdError) {
	v, i, err := durationNumber(b)
	if err != "" {
		return 0, 0, false, 0, err
	}
	if i < len(b) && (b[i] == '.' || b[i] == ',') {
		dec, den := 0.0, 1.0
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			dec = dec*10 + float64(b[i]-'0')
			den *= 10
		}
		return v, dec / den, true, i, ""
	}
	return v, 0, false, i, ""
}

func parseISODuration(b string) (sdDuration, sdError) {
	var d sdDuration
	gotT, lastFrac := false, false
	pos := 0
	for pos < len(b) {
		if b[pos] == 'T' {
			if gotT {
				return d, sdDurationTRepeated
			}
			gotT = true
			pos++
			continue
		}
		value, frac, hasFrac, n, err := durationNumberFrac(b[pos:])
		if err != "" {
			return d, err
		}
		if lastFrac {
			return d, sdDurationInvalidFrac
		}
		lastFrac = hasFrac
		pos += n
		var unit byte
		if pos < len(b) {
			unit = b[pos]
		}
		var ok bool
		if gotT {
			mult := map[byte]uint64{'H': 3600, 'M': 60, 'S': 1}[unit]
			if mult == 0 {
				return d, sdDurationInvalidTime
			}
			var add uint64
			if add, ok = u32Mul(mult, value); !ok {
				return d, sdDurationValueTooLarge
			}
			if d.second, ok = u32Add(d.second, add); !ok {
				return d, sdDurationValueTooLarge
			}
			if hasFrac {
				extra := frac * float64(mult)
				full := math.Trunc(extra)
				if d.second, ok = u32Add(d.second, uint64(full)); !ok {
					return d, sdDurationValueTooLarge
				}
				if d.micro, ok = u32Add(d.micro, uint64(math.Round((extra-full)*1_000_000))); !ok {
					return d, sdDurationValueTooLarge
				}
			}
		} else {
			mult := map[byte]uint64{'Y': 365, 'M': 30, 'W': 7, 'D': 1}[unit]
			if mult == 0 {
				return d, sdDurationInvalidDate
			}
			var add uint64
			if add, ok = u32Mul(value, mult); !ok {
				return d, sdDurationValueTooLarge
			}
			if d.day, ok = u32Add(d.day, add); !ok {
				return d, sdDurationValueTooLarge
			}
			if hasFrac {
				extraDays := frac * float64(mult)
				fullDays := math.Trunc(extraDays)
				if d.day, ok = u32Add(d.day, uint64(fullDays)); !ok {
					return d, sdDurationValueTooLarge
				}
				extra := (extraDays - fullDays) * secondsPerDay
				full := math.Trunc(extra)
				if d.second, ok = u32Add(d.second, uint64(full)); !ok {
					return d, sdDurationValueTooLarge
				}
				d.micro += uint64(math.Round((extra - full) * 1_000_000))
			}
		}
		pos++
	}
	if pos < 2 {
		return d, sdTooShort // "P", "PT": no quantity
	}
	return d, ""
}

func parseDaysTime(b string) (sdDuration, sdError) {
	var d sdDuration
	day, pos, err := durationNumber(b)
	if err != "" {
		if b == "" {
			return d, sdTooShort
		}
		return d, err
	}
	rest := b[pos:]
	switch {
	case len(rest) >= 2 && rest[0] == ' ' && (rest[1] == 'd' || rest[1] == 'D'):
		rest = rest[2:]
	case len(rest) >= 1 && (rest[0] == 'd' || rest[0] == 'D'):
		rest = rest[1:]
	default:
		return d, sdDurationInvalidDays
	}
	switch {
	case len(rest) >= 3 && (rest[:3] == "ays" || rest[:3] == "AYS"):
		rest = rest[3:]
	case len(rest) >= 2 && (rest[:2] == "ay" || rest[:2] == "AY"):
		rest = rest[2:]
	case rest != "" && (rest[0] == 'a' || rest[0] == 'A'):
		return d, sdDurationInvalidDays
	}
	switch {
	case len(rest) >= 2 && rest[:2] == ", ":
		rest = rest[2:]
	case rest != "" && (rest[0] == ',' || rest[0] == ' '):
		rest = rest[1:]
	}
	d.day = day
	if rest == "" {
		return d, ""
	}
	t, err := parseDurationTime(rest)
	if err != "" {
		return d, err
	}
	if t.day > 0 {
		return d, sdDurationHourTooLarge
	}
	d.second, d.micro = t.second, t.micro
	return d, ""
}

// parseDurationTime is the "HHH:MM[:SS[.ffffff]]" form: any number of
// hours, then a time of day's minutes and seconds.
func parseDurationTime(b string) (sdDuration, sdError) {
	var d sdDuration
	if len(b) < 5 {
		return d, sdTooShort
	}
	colon := -1
	for i := 0; i < len(b); i++ {
		if b[i] == ':' {
			colon = i
			break
		}
	}
	if colon < 0 {
		return d, sdInvalidCharHour
	}
	hourPart, rest := b[:colon], b[colon+1:]
	if len(hourPart) > 10 {
		return d, sdDurationHourTooLarge
	}
	var hour uint64
	for i := 0; i < len(hourPart); i++ {
		h := hourPart[i] - '0'
		if h > 9 {
			return d, sdInvalidCharHour
		}
		hour = hour*10 + uint64(h)
	}
	if hour > 24*100_000_000 {
		return d, sdDurationHourTooLarge
	}
	if 3+len(rest) > 15 {
		rest = rest[:12] // sub-microsecond digits truncated
	}
	t, err := parseTimeAt("00:"+rest, 0)
	switch err {
	case "":
		if t.hasTZ {
			return d, sdExtraCharacters // PureTime reads no offset
		}
	case sdInvalidCharTzSign, sdInvalidCharTzHour, sdInvalidCharTzMinute, sdOutOfRangeTzMinute, sdOutOfRangeTz:
		return d, sdExtraCharacters
	default:
		return d, err
	}
	d.day = hour / 24
	d.second = uint64(t.minute*60+t.second) + hour%24*3600
	d.micro = uint64(t.micro)
	return d, ""
}

// validateDuration is pydantic's timedelta validator in lax mode.
func validateDuration(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	var d sdDuration
	var err sdError
	switch v.kind {
	case pyStr:
		if st.surrogateCrash(v) {
			return out, false
		}
		d, err = parseDuration(v.s)
	case pyInt, pyBool:
		switch {
		case v.kind == pyBool:
			d = sdDuration{positive: true}
			if v.b {
				d.second = 1
			}
		case v.big != nil:
			err = sdDurationDaysTooLarge
		default:
			n := v.i
			d.positive = n >= 0
			mag := uint64(n)
			if n < 0 {
				mag = uint64(-n)
			}
			d.day, d.second = mag/secondsPerDay, mag%secondsPerDay
		}
		if err == "" {
			err = d.normalize()
		}
	case pyFloat:
		d, err = durationFromFloat(v.f)
	default:
		st.add("time_delta_type", msgTimeDeltaType, v, nil)
		return out, false
	}
	if err != "" {
		parsingError(st, "time_delta_parsing", msgTimeDeltaParsingPrefix, v, err)
		return out, false
	}
	return appendDuration(out, d), true
}

// durationFromFloat is pydantic-core's float_as_duration.
func durationFromFloat(f float64) (sdDuration, sdError) {
	if math.IsNaN(f) {
		return sdDuration{}, durationNaN
	}
	d := sdDuration{positive: f >= 0}
	f = math.Abs(f)
	_, frac := math.Modf(f)
	days := f / secondsPerDay
	if days > math.MaxUint32 {
		return d, sdDurationDaysTooLarge // Rust's `as u32` saturates
	}
	d.day = uint64(days)
	secs := f
	if secs > math.MaxUint64 {
		secs = math.MaxUint64
	}
	d.second = uint64(secs) % secondsPerDay
	d.micro = uint64(math.Round(frac * 1_000_000))
	return d, d.normalize()
}

// appendDuration writes a timedelta as model_dump(mode="json") does
// (ser_json_timedelta "iso8601"), quoted.
func appendDuration(dst []byte, d sdDuration) []byte {
	dst = append(dst, '"')
	if !d.positive && (d.day != 0 || d.second != 0 || d.micro != 0) {
		dst = append(dst, '-')
	}
	dst = append(dst, 'P')
	if y := d.day / 365; y != 0 {
		dst = strconv.AppendUint(dst, y, 10)
		dst = append(dst, 'Y')
	}
	if dd := d.day % 365; dd != 0 {
		dst = strconv.AppendUint(dst, dd, 10)
		dst = append(dst, 'D')
	}
	if d.second != 0 || d.micro != 0 {
		dst = append(dst, 'T')
		if h := d.second / 3600; h != 0 {
			dst = strconv.AppendUint(dst, h, 10)
			dst = append(dst, 'H')
		}
		if m := d.second % 3600 / 60; m != 0 {
			dst = strconv.AppendUint(dst, m, 10)
			dst = append(dst, 'M')
		}
		if s := d.second % 60; s != 0 || d.micro != 0 {
			dst = strconv.AppendUint(dst, s, 10)
			if d.micro != 0 {
				frac := strconv.AppendUint(nil, d.micro+1_000_000, 10)[1:]
				for len(frac) > 0 && frac[len(frac)-1] == '0' {
					frac = frac[:len(frac)-1]
				}
				dst = append(dst, '.')
				dst = append(dst, frac...)
			}
			dst = append(dst, 'S')
		}
	}
	if d.day == 0 && d.second == 0 && d.micro == 0 {
		dst = append(dst, "T0S"...)
	}
	return append(dst, '"')
}
