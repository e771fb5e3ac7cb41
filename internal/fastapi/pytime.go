package fastapi

import (
	"math"
	"strconv"
)

// This file ports what pydantic-core 2.46 does with a date, time or
// datetime field in lax (Python) mode: speedate 0.17's parsers for strings
// and Unix timestamps (pydantic passes "infer" for the timestamp unit and
// "truncate" for sub-microsecond digits), and the fallbacks between them
// that pydantic-core's validators add (a date may be given as a datetime
// at midnight, a datetime as a date).

// sdError is a speedate ParseError; its text is the variant's doc comment,
// which pydantic puts in ctx.error.
type sdError string

const (
	sdTooShort              sdError = "input is too short"
	sdExtraCharacters       sdError = "unexpected extra characters at the end of the input"
	sdInvalidCharDTSep      sdError = "invalid datetime separator, expected `T`, `t`, `_` or space"
	sdInvalidCharDateSep    sdError = "invalid date separator, expected `-`"
	sdDateNotExact          sdError = "Timestamp is not an exact date"
	sdInvalidCharYear       sdError = "invalid character in year"
	sdInvalidCharMonth      sdError = "invalid character in month"
	sdInvalidCharDay        sdError = "invalid character in day"
	sdInvalidCharTimeSep    sdError = "invalid time separator, expected `:`"
	sdInvalidCharHour       sdError = "invalid character in hour"
	sdInvalidCharMinute     sdError = "invalid character in minute"
	sdInvalidCharSecond     sdError = "invalid character in second"
	sdInvalidCharTzSign     sdError = "invalid timezone sign"
	sdInvalidCharTzHour     sdError = "invalid timezone hour"
	sdInvalidCharTzMinute   sdError = "invalid timezone minute"
	sdOutOfRangeTzMinute    sdError = "timezone minute value is outside expected range of 0-59"
	sdOutOfRangeTz          sdError = "timezone offset must be less than 24 hours"
	sdOutOfRangeMonth       sdError = "month value is outside expected range of 1-12"
	sdOutOfRangeDay         sdError = "day value is outside expected range"
	sdOutOfRangeHour        sdError = "hour value is outside expected range of 0-23"
	sdOutOfRangeMinute      sdError = "minute value is outside expected range of 0-59"
	sdOutOfRangeSecond      sdError = "second value is outside expected range of 0-59"
	sdSecondFractionMissing sdError = "second fraction digits missing after `.`"
	sdDateTooSmall          sdError = "dates before 0000 are not supported as unix timestamps"
	sdDateTooLarge          sdError = "dates after 9999 are not supported as unix timestamps"
	sdTimeTooLarge          sdError = "numeric times may not exceed 86,399 seconds"
)

type sdDate struct {
	year       int
	month, day int
}

type sdTime struct {
	hour, minute, second int
	micro                int
	hasTZ                bool
	tz                   int // offset in seconds
}

type sdDateTime struct {
	date sdDate
	time sdTime
}

const (
	msWatershed = 20_000_000_000
	unix9999    = 253_402_300_799
	unix0000    = -62_167_219_200
)

func digitAt(b string, i int) (int, bool) {
	if i < len(b) && b[i] >= '0' && b[i] <= '9' {
		return int(b[i] - '0'), true
	}
	return 0, false
}

func isLeapYear(y int) bool {
	if y%100 == 0 {
		return y%400 == 0
	}
	return y%4 == 0
}

// parseDatePartial is Date::parse_bytes_partial: the first 10 bytes.
func parseDatePartial(b string) (sdDate, sdError) {
	if len(b) < 10 {
		return sdDate{}, sdTooShort
	}
	var d sdDate
	for i := 0; i < 4; i++ {
		n, ok := digitAt(b, i)
		if !ok {
			return d, sdInvalidCharYear
		}
		d.year = d.year*10 + n
	}
	if b[4] != '-' {
		return d, sdInvalidCharDateSep
	}
	m1, ok1 := digitAt(b, 5)
	m2, ok2 := digitAt(b, 6)
	if !ok1 || !ok2 {
		return d, sdInvalidCharMonth
	}
	d.month = m1*10 + m2
	if b[7] != '-' {
		return d, sdInvalidCharDateSep
	}
	d1, ok1 := digitAt(b, 8)
	d2, ok2 := digitAt(b, 9)
	if !ok1 || !ok2 {
		return d, sdInvalidCharDay
	}
	d.day = d1*10 + d2
	var maxDays int
	switch d.month {
	case 1, 3, 5, 7, 8, 10, 12:
		maxDays = 31
	case 4, 6, 9, 11:
		maxDays = 30
	case 2:
		maxDays = 28
		if isLeapYear(d.year) {
			maxDays = 29
		}
	default:
		return d, sdOutOfRangeMonth
	}
	if d.day < 1 || d.day > maxDays {
		return d, sdOutOfRangeDay
	}
	return d, ""
}

// parseDate is Date::parse_bytes_with_config: RFC 3339 full-date, else an
// integer Unix timestamp that falls exactly on a day.
func parseDate(b string) (sdDate, sdError) {
	d, err := parseDatePartial(b)
	if err == "" && len(b) > 10 {
		err = sdExtraCharacters
	}
	if err == "" {
		return d, ""
	}
	ts, ok := sdParseInt(b)
	if !ok {
		return sdDate{}, err
	}
	sec, micro, e := timestampWatershed(ts)
	if e != "" {
		return sdDate{}, e
	}
	d, rem, e := dateFromTimestamp(sec)
	if e != "" {
		return sdDate{}, e
	}
	if rem != 0 || micro != 0 {
		return sdDate{}, sdDateNotExact
	}
	return d, ""
}

// sdParseInt is speedate's int_parse_bytes: optional sign, ASCII digits,
// no overflow.
func sdParseInt(b string) (int64, bool) {
	n, stop := sdParseIntStop(b)
	return n, stop == -1
}

// sdParseIntStop returns the value, or the byte it stopped at (-2 for an
// empty input); -1 when the whole input was an integer.
func sdParseIntStop(b string) (int64, int) {
	if b == "" {
		return 0, -2
	}
	neg := false
	s := b
	if len(s) >= 2 && s[0] == '-' {
		neg, s = true, s[1:]
	} else if len(s) >= 2 && s[0] == '+' {
		s = s[1:]
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, int(c)
		}
		n = n*10 + int64(c-'0') // wrapping, as speedate
		if i > 0 && n < 0 {
			return 0, int(c)
		}
	}
	if neg {
		n = -n
	}
	return n, -1
}

// sdParseNumber is float_parse_bytes: an integer, else (only when the
// integer stopped at a '.') a float in Rust's lexical syntax.
func sdParseNumber(b string) (n int64, f float64, isFloat, ok bool) {
	n, stop := sdParseIntStop(b)
	if stop == -1 {
		return n, 0, false, true
	}
	if stop != '.' {
		return 0, 0, false, false
	}
	f, ok = rustParseFloat(b, false)
	return 0, f, true, ok
}

func timestampWatershed(ts int64) (int64, int, sdError) {
	if ts == math.MinInt64 {
		return 0, 0, sdDateTooSmall
	}
	abs := ts
	if abs < 0 {
		abs = -abs
	}
	if abs <= msWatershed {
		return ts, 0, ""
	}
	sec := ts / 1000
	micro := (ts % 1000) * 1000
	if micro < 0 {
		sec--
		micro += 1_000_000
	}
	return sec, int(micro), ""
}

func interveningLeapYears(y int64) int64 {
	if y == 0 {
		return 0
	}
	return (y-1)/4 - (y-1)/100 + (y-1)/400 + 1
}

// dateFromTimestamp is Date::from_timestamp_calc: the day and the seconds
// left in it.
func dateFromTimestamp(ts int64) (sdDate, int, sdError) {
	if ts < unix0000 {
		return sdDate{}, 0, sdDateTooSmall
	}
	if ts > unix9999 {
		return sdDate{}, 0, sdDateTooLarge
	}
	diff := ts - unix0000
	days := diff / 86_400
	years := days / 365
	ordinal := days%365 - interveningLeapYears(years) + 1
	year := int(years)
	leap := isLeapYear(year)
	for ordinal < 1 {
		year--
		leap = isLeapYear(year)
		if leap {
			ordinal += 366
		} else {
			ordinal += 365
		}
	}
	cum := [...]int64{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365}
	month := 12
	for m := 1; m <= 12; m++ {
		end := cum[m]
		if leap && m >= 2 {
			end++
		}
		if ordinal <= end {
			month = m
			break
		}
	}
	start := cum[month-1]
	if leap && month > 2 {
		start++
	}
	rem := ts % 86_400
	if rem < 0 {
		rem += 86_400
	}
	return sdDate{year: year, month: month, day: int(ordinal - start)}, int(rem), ""
}

// parseTimeAt is Time::parse_bytes_offset from offset, sub-microsecond
// digits truncated (pydantic's default).
func parseTimeAt(b string, offset int) (sdTime, sdError) {
	if len(b)-offset < 5 {
		return sdTime{}, sdTooShort
	}
	var t sdTime
	h1, ok1 := digitAt(b, offset)
	h2, ok2 := digitAt(b, offset+1)
	if !ok1 || !ok2 {
		return t, sdInvalidCharHour
	}
	t.hour = h1*10 + h2
	if b[offset+2] != ':' {
		return t, sdInvalidCharTimeSep
	}
	m1, ok1 := digitAt(b, offset+3)
	m2, ok2 := digitAt(b, offset+4)
	if !ok1 || !ok2 {
		return t, sdInvalidCharMinute
	}
	t.minute = m1*10 + m2
	if t.hour > 23 {
		return t, sdOutOfRangeHour
	}
	if t.minute > 59 {
		return t, sdOutOfRangeMinute
	}
	length := 5
	if offset+5 < len(b) && b[offset+5] == ':' {
		s1, ok1 := digitAt(b, offset+6)
		if !ok1 {
			return t, sdInvalidCharSecond
		}
		s2, ok2 := digitAt(b, offset+7)
		if !ok2 {
			return t, sdInvalidCharSecond
		}
		t.second = s1*10 + s2
		if t.second > 59 {
			return t, sdOutOfRangeSecond
		}
		length = 8
		if offset+8 < len(b) && (b[offset+8] == '.' || b[offset+8] == ',') {
			length = 9
			i := 0
			for {
				d, ok := digitAt(b, offset+length+i)
				if !ok {
					break
				}
				if i < 6 {
					t.micro = t.micro*10 + d
				}
				i++
			}
			if i == 0 {
				return t, sdSecondFractionMissing
			}
			for k := i; k < 6; k++ {
				t.micro *= 10
			}
			length += i
		}
	}
	pos := offset + length
	if pos < len(b) {
		c := b[pos]
		pos++
		if c == 'Z' || c == 'z' {
			t.hasTZ = true
		} else {
			sign := 0
			switch c {
			case '+':
				sign = 1
			case '-':
				sign = -1
			case 0xE2: // U+2212 MINUS SIGN
				if pos >= len(b) || b[pos] != 0x88 || pos+1 >= len(b) || b[pos+1] != 0x92 {
					return t, sdInvalidCharTzSign
				}
				pos += 2
				sign = -1
			default:
				return t, sdInvalidCharTzSign
			}
			h1, ok1 := digitAt(b, pos)
			if !ok1 {
				return t, sdInvalidCharTzHour
			}
			h2, ok2 := digitAt(b, pos+1)
			if !ok2 {
				return t, sdInvalidCharTzHour
			}
			var m1 int
			switch {
			case pos+2 < len(b) && b[pos+2] == ':':
				pos += 3
				d, ok := digitAt(b, pos)
				if !ok {
					return t, sdInvalidCharTzMinute
				}
				m1 = d
			case pos+2 < len(b) && b[pos+2] >= '0' && b[pos+2] <= '9':
				pos += 2
				m1 = int(b[pos] - '0')
			default:
				return t, sdInvalidCharTzMinute
			}
			m2, ok := digitAt(b, pos+1)
			if !ok {
				return t, sdInvalidCharTzMinute
			}
			minuteSeconds := m1*600 + m2*60
			if minuteSeconds >= 3600 {
				return t, sdOutOfRangeTzMinute
			}
			off := sign * (h1*36000 + h2*3600 + minuteSeconds)
			if off >= 24*3600 || off <= -24*3600 {
				return t, sdOutOfRangeTz
			}
			t.hasTZ, t.tz = true, off
			pos += 2
		}
	}
	if len(b) > pos {
		return t, sdExtraCharacters
	}
	return t, ""
}

// timeFromSeconds is Time::from_timestamp_with_config with the UTC offset
// pydantic gives numeric times.
func timeFromSeconds(sec int64, micro int64) (sdTime, sdError) {
	if micro >= 1_000_000 {
		sec += micro / 1_000_000
		micro %= 1_000_000
	}
	if sec >= 86_400 {
		return sdTime{}, sdTimeTooLarge
	}
	return sdTime{hour: int(sec / 3600), minute: int(sec % 3600 / 60), second: int(sec % 60), micro: int(micro), hasTZ: true}, ""
}

// parseDateTime is DateTime::parse_bytes_with_config.
func parseDateTime(b string) (sdDateTime, sdError) {
	d, err := parseDatePartial(b)
	if err == "" {
		if len(b) <= 10 || (b[10] != 'T' && b[10] != 't' && b[10] != ' ' && b[10] != '_') {
			err = sdInvalidCharDTSep
		} else {
			var t sdTime
			if t, err = parseTimeAt(b, 11); err == "" {
				return sdDateTime{d, t}, ""
			}
		}
	}
	n, f, isFloat, ok := sdParseNumber(b)
	switch {
	case !ok:
		return sdDateTime{}, err
	case !isFloat:
		return dateTimeFromTimestamp(n, 0)
	}
	if math.Abs(f) > msWatershed {
		f /= 1000
	}
	sec := math.Floor(f)
	micro := math.Round((f - sec) * 1_000_000)
	return dateTimeFromTimestamp(saturateI64(sec), int64(saturateU32(micro)))
}

// dateTimeFromTimestamp is DateTime::from_timestamp_with_config: a
// timestamp in seconds (or milliseconds beyond 2e10), in UTC.
func dateTimeFromTimestamp(ts int64, micro int64) (sdDateTime, sdError) {
	sec, extra, err := timestampWatershed(ts)
	if err != "" {
		return sdDateTime{}, err
	}
	total := micro + int64(extra)
	if total > math.MaxUint32 {
		return sdDateTime{}, sdTimeTooLarge
	}
	if total >= 1_000_000 {
		sec += total / 1_000_000
		total %= 1_000_000
	}
	d, rem, err := dateFromTimestamp(sec)
	if err != "" {
		return sdDateTime{}, err
	}
	t, err := timeFromSeconds(int64(rem), total)
	if err != "" {
		return sdDateTime{}, err
	}
	return sdDateTime{d, t}, ""
}

// dateTimeFromFloat is DateTime::from_float_with_config (unit "infer").
func dateTimeFromFloat(f float64) (sdDateTime, sdError) {
	frac := math.Abs(f - math.Trunc(f))
	micro := frac * 1_000_000
	if math.Abs(f) > msWatershed {
		micro = frac * 1_000
	}
	return dateTimeFromTimestamp(saturateI64(math.Floor(f)), int64(saturateU32(math.Round(micro))))
}

// saturateI64 is Rust's f64 as i64: saturating, NaN to 0.
func saturateI64(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

func saturateU32(f float64) uint32 {
	switch {
	case f != f || f <= 0:
		return 0
	case f >= math.MaxUint32:
		return math.MaxUint32
	}
	return uint32(f)
}

func appendDate(dst []byte, d sdDate) []byte {
	dst = appendPad(dst, d.year, 4)
	dst = append(dst, '-')
	dst = appendPad(dst, d.month, 2)
	dst = append(dst, '-')
	return appendPad(dst, d.day, 2)
}

// appendTime writes a time as pydantic serialises it in JSON mode:
// isoformat, with "Z" for a zero UTC offset.
func appendTime(dst []byte, t sdTime) []byte {
	dst = appendPad(dst, t.hour, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, t.minute, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, t.second, 2)
	if t.micro != 0 {
		dst = append(dst, '.')
		dst = appendPad(dst, t.micro, 6)
	}
	if !t.hasTZ {
		return dst
	}
	if t.tz == 0 {
		return append(dst, 'Z')
	}
	off := t.tz
	if off < 0 {
		dst = append(dst, '-')
		off = -off
	} else {
		dst = append(dst, '+')
	}
	dst = appendPad(dst, off/3600, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, off%3600/60, 2)
	if s := off % 60; s != 0 {
		dst = append(dst, ':')
		dst = appendPad(dst, s, 2)
	}
	return dst
}

func appendPad(dst []byte, n, width int) []byte {
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// rustParseFloat is Rust's str::parse::<f64>() (or, with lexical false,
// the lexical STANDARD format speedate uses, which has the same grammar
// for what matters here): an optional sign, then "inf", "infinity" or
// "nan" in any case, or digits with an optional '.', at least one digit,
// and an optional exponent. No white space, no underscores.
func rustParseFloat(s string, specials bool) (float64, bool) {
	t := s
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg, t = t[0] == '-', t[1:]
	}
	if specials {
		switch lower := asciiLower(t); lower {
		case "inf", "infinity":
			if neg {
				return math.Inf(-1), true
			}
			return math.Inf(1), true
		case "nan":
			return math.NaN(), true
		}
	}
	i, digits := 0, 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(t) && t[i] == '.' {
		i++
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return 0, false
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		expDigits := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i, expDigits = i+1, expDigits+1
		}
		if expDigits == 0 {
			return 0, false
		}
	}
	if i != len(t) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return f, true
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func parsingError(st *vstate, typ, msgPrefix string, v *pyValue, err sdError) {
	st.add(typ, msgPrefix+string(err), v, []KV{{"error", string(err)}})
}

// laxDateTime is validate_datetime in lax mode: a string parsed by
// speedate, a bool refused, an int or float read as a Unix timestamp (an
// int beyond int64 as a float). typeErr: datetime_type; else perr, when
// set, is the datetime_parsing text.
func laxDateTime(v *pyValue) (dt sdDateTime, perr sdError, typeErr bool) {
	switch v.kind {
	case pyStr:
		dt, perr = parseDateTime(v.s)
		return dt, perr, false
	case pyInt:
		if v.big == nil {
			dt, perr = dateTimeFromTimestamp(v.i, 0)
			return dt, perr, false
		}
		f, ok := bigToFloat(v)
		if !ok {
			return dt, "", true
		}
		dt, perr = dateTimeFromFloat(f)
		return dt, perr, false
	case pyFloat:
		if math.IsNaN(v.f) {
			return dt, "NaN values not permitted", false
		}
		dt, perr = dateTimeFromFloat(v.f)
		return dt, perr, false
	}
	return dt, "", true
}

// bigToFloat is float(int) for an int beyond int64; false on overflow.
func bigToFloat(v *pyValue) (float64, bool) {
	var probe vstate
	return probe.laxFloat(v)
}

const (
	msgDateType     = "Input should be a valid date"
	msgDatetimeType = "Input should be a valid datetime"
	msgTimeType     = "Input should be a valid time"
)

// validateDate is pydantic-core's DateValidator in lax mode: a date
// string (or a Unix timestamp string falling on a day); when that fails,
// whatever makes a datetime at midnight (a datetime string, an int or
// float timestamp), the datetime's parse error replacing the date's.
func validateDate(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if st.surrogateCrash(v) {
		return out, false
	}
	var d sdDate
	dateErr := sdError("")
	if v.kind == pyStr {
		d, dateErr = parseDate(v.s)
	}
	if v.kind != pyStr || dateErr != "" {
		dt, perr, typeErr := laxDateTime(v)
		switch {
		case typeErr && v.kind == pyStr:
			parsingError(st, "date_parsing", "Input should be a valid date in the format YYYY-MM-DD, ", v, dateErr)
			return out, false
		case typeErr:
			st.add("date_type", msgDateType, v, nil)
			return out, false
		case perr != "":
			parsingError(st, "date_from_datetime_parsing", "Input should be a valid date or datetime, ", v, perr)
			return out, false
		case dt.time.hour != 0 || dt.time.minute != 0 || dt.time.second != 0 || dt.time.micro != 0:
			st.add("date_from_datetime_inexact", "Datetimes provided to dates should have zero time - e.g. be exact dates", v, nil)
			return out, false
		}
		d = dt.date
	}
	if d.year == 0 {
		// Python's date() refuses year 0, which speedate accepts.
		parsingError(st, "date_parsing", "Input should be a valid date in the format YYYY-MM-DD, ", v, "year 0 is out of range")
		return out, false
	}
	out = append(out, '"')
	out = appendDate(out, d)
	return append(out, '"'), true
}

// validateDateTime is pydantic-core's DateTimeValidator: a datetime, else
// in lax mode a date string taken at midnight.
func validateDateTime(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if st.surrogateCrash(v) {
		return out, false
	}
	dt, perr, typeErr := laxDateTime(v)
	if typeErr || perr != "" {
		if v.kind != pyStr {
			if typeErr {
				st.add("datetime_type", msgDatetimeType, v, nil)
			} else {
				parsingError(st, "datetime_parsing", "Input should be a valid datetime, ", v, perr)
			}
			return out, false
		}
		d, derr := parseDate(v.s)
		if derr != "" {
			parsingError(st, "datetime_from_date_parsing", "Input should be a valid datetime or date, ", v, derr)
			return out, false
		}
		dt = sdDateTime{date: d}
	}
	if dt.date.year == 0 {
		parsingError(st, "datetime_parsing", "Input should be a valid datetime, ", v, "year 0 is out of range")
		return out, false
	}
	out = append(out, '"')
	out = appendDate(out, dt.date)
	out = append(out, 'T')
	out = appendTime(out, dt.time)
	return append(out, '"'), true
}

// validateTime is pydantic-core's TimeValidator in lax mode.
func validateTime(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if st.surrogateCrash(v) {
		return out, false
	}
	var t sdTime
	var perr sdError
	switch v.kind {
	case pyStr:
		t, perr = parseTimeAt(v.s, 0)
	case pyInt, pyFloat:
		f := v.f
		if v.kind == pyInt {
			if v.big == nil {
				t, perr = intAsTime(v.i, 0)
				break
			}
			var ok bool
			if f, ok = bigToFloat(v); !ok {
				st.add("time_type", msgTimeType, v, nil)
				return out, false
			}
		}
		if math.IsNaN(f) {
			perr = "NaN values not permitted"
			break
		}
		micro := math.Abs(f-math.Trunc(f)) * 1_000_000
		t, perr = intAsTime(saturateI64(math.Floor(f)), int64(saturateU32(math.Round(micro))))
	default:
		st.add("time_type", msgTimeType, v, nil)
		return out, false
	}
	if perr != "" {
		parsingError(st, "time_parsing", "Input should be in a valid time format, ", v, perr)
		return out, false
	}
	out = append(out, '"')
	out = appendTime(out, t)
	return append(out, '"'), true
}

// intAsTime is pydantic-core's int_as_time: seconds since midnight, UTC.
func intAsTime(sec, micro int64) (sdTime, sdError) {
	if sec < 0 {
		return sdTime{}, "time in seconds should be positive"
	}
	if sec > math.MaxUint32 {
		sec = math.MaxUint32
	}
	return timeFromSeconds(sec, micro)
}
