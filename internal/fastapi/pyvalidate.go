package fastapi

import (
	"math"
	"math/big"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// This file is pydantic-core 2.46's validation of the Python objects
// json.loads returned, in lax mode and "python" input mode (FastAPI calls
// TypeAdapter.validate_python(value, from_attributes=True), not
// validate_json): the coercions, the order of checks, the error types,
// messages and contexts, and model_dump(mode="json") of what was accepted.

// vstate collects what one validation found.
type vstate struct {
	loc   []any
	items []ErrorItem
	// crash: FastAPI answers 500, not 422: pydantic-core raised a Python
	// exception (a lone surrogate it had to encode), or an error's input
	// cannot be written as JSON (NaN, a lone surrogate, too deep).
	crash bool
	// unencodable: the validated value holds NaN, an infinity or a lone
	// surrogate, which Starlette's JSONResponse refuses.
	unencodable bool
	// guessed: the dump holds a default the schema does not show (see
	// ModelField.DefaultGuessed).
	guessed bool
	// rawKeys: the value reaches the endpoint as Python objects, not
	// through a model's dump (a body that is not a model, outside any
	// model it holds): a dict key with a lone surrogate stays as it is,
	// which Starlette's JSONResponse refuses, where model_dump writes it
	// as U+FFFD.
	rawKeys bool
	// work counts the composite (union, allOf) validations of one
	// value, shared with the states its alternatives run in: see spend.
	work *int
}

// maxCompositeWork bounds the composite validations of one value: a
// document's unions of unions could otherwise take time exponential in
// the value's depth. Past it, the rest of the value is taken as it is.
const maxCompositeWork = 20000

// spend counts one composite validation, and reports whether the value's
// budget is spent.
func (st *vstate) spend() bool {
	if st.work == nil {
		st.work = new(int)
	}
	*st.work++
	return *st.work > maxCompositeWork
}

func (st *vstate) add(typ, msg string, input *pyValue, ctx []KV) {
	raw, ok := appendInput(nil, input)
	if !ok {
		st.crash = true
	}
	st.items = append(st.items, ErrorItem{Type: typ, Loc: append([]any(nil), st.loc...), Msg: msg, Input: RawJSON(raw), Ctx: ctx})
}

// addRaw adds an error whose input was already rendered.
func (st *vstate) addRaw(typ, msg string, raw []byte, ok bool) {
	if !ok {
		st.crash = true
	}
	st.items = append(st.items, ErrorItem{Type: typ, Loc: append([]any(nil), st.loc...), Msg: msg, Input: RawJSON(raw)})
}

func (st *vstate) push(item any) { st.loc = append(st.loc, item) }
func (st *vstate) pop()          { st.loc = st.loc[:len(st.loc)-1] }

const (
	msgIntType      = "Input should be a valid integer"
	msgIntFromFloat = "Input should be a valid integer, got a number with a fractional part"
	msgIntSize      = "Unable to parse input string as an integer, exceeded maximum size"
	msgFinite       = "Input should be a finite number"
	msgFloatType    = "Input should be a valid number"
	msgStrType      = "Input should be a valid string"
	msgBoolType     = "Input should be a valid boolean"
	msgListType     = "Input should be a valid list"
	msgDictType     = "Input should be a valid dictionary"
	msgModelAttrs   = "Input should be a valid dictionary or object to extract fields from"
	msgExtra        = "Extra inputs are not permitted"
	msgNone         = "Input should be None"
)

// validate checks v against n, appending its model_dump(mode="json") to
// out; false when it added errors (out is then to be discarded).
func (n *vnode) validate(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	switch n.kind {
	case vAny:
		dump, ok := appendAnyDump(out, v)
		st.unencodable = st.unencodable || !ok
		return dump, true
	case vNullable:
		if v.kind == pyNone {
			return append(out, "null"...), true
		}
		return n.elem.validate(st, v, out)
	case vNone:
		if v.kind == pyNone {
			return append(out, "null"...), true
		}
		st.add("none_required", msgNone, v, nil)
		return out, false
	case vInt:
		return n.validateInt(st, v, out)
	case vFloat:
		return n.validateFloat(st, v, out)
	case vStr:
		return n.validateStr(st, v, out)
	case vBool:
		b, ok := st.laxBool(v)
		if !ok {
			return out, false
		}
		return strconv.AppendBool(out, b), true
	case vLiteral:
		return n.validateLiteral(st, v, out)
	case vEnum:
		return n.validateEnum(st, v, out)
	case vList:
		return n.validateList(st, v, out)
	case vDict:
		return n.validateDict(st, v, out)
	case vModel:
		return n.model.validate(st, v, out)
	case vDate:
		return validateDate(st, v, out)
	case vDateTime:
		return validateDateTime(st, v, out)
	case vTime:
		return validateTime(st, v, out)
	case vUUID:
		return validateUUID(st, v, out)
	case vURL:
		return n.url.validate(st, v, out)
	case vDuration:
		return validateDuration(st, v, out)
	case vBytes:
		return n.validateBytes(st, v, out)
	case vEmail:
		return n.validateEmail(st, v, out)
	case vUnion:
		return n.validateUnion(st, v, out)
	case vAllOf:
		return n.validateAllOf(st, v, out)
	}
	panic("unreachable")
}

// surrogateCrash is pydantic-core turning a str into Rust text to parse it:
// a lone surrogate raises, and FastAPI answers 500.
func (st *vstate) surrogateCrash(v *pyValue) bool {
	if v.kind == pyStr && hasSurrogate(v.s) {
		st.crash = true
		return true
	}
	return false
}

// pyInt is a Python int.
type pyIntVal struct {
	small int64
	big   *big.Int
}

func (x pyIntVal) toBig() *big.Int {
	if x.big != nil {
		return x.big
	}
	return big.NewInt(x.small)
}

func (x pyIntVal) append(dst []byte) []byte {
	if x.big != nil {
		return x.big.Append(dst, 10)
	}
	return strconv.AppendInt(dst, x.small, 10)
}

// laxInt is validate_int in lax mode for what json.loads returns. Errors
// are added; ok false then.
func (st *vstate) laxInt(v *pyValue) (pyIntVal, bool) {
	switch v.kind {
	case pyInt:
		return pyIntVal{v.i, v.big}, true
	case pyBool:
		if v.b {
			return pyIntVal{small: 1}, true
		}
		return pyIntVal{}, true
	case pyStr:
		if st.surrogateCrash(v) {
			return pyIntVal{}, false
		}
		if IntTooLong(v.s) {
			st.add("int_parsing_size", msgIntSize, v, nil)
			return pyIntVal{}, false
		}
		li, ok := ParseLaxInt(v.s)
		if !ok {
			st.add("int_parsing", msgIntParsing, v, nil)
			return pyIntVal{}, false
		}
		if li.Fits {
			return pyIntVal{small: li.Int64}, true
		}
		b, _ := new(big.Int).SetString(li.Text, 10)
		return pyIntVal{big: b}, true
	case pyFloat:
		return st.floatAsInt(v)
	}
	st.add("int_type", msgIntType, v, nil)
	return pyIntVal{}, false
}

// floatAsInt is pydantic-core's float_as_int.
func (st *vstate) floatAsInt(v *pyValue) (pyIntVal, bool) {
	f := v.f
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f):
		st.add("finite_number", msgFinite, v, nil)
	case f != math.Trunc(f):
		st.add("int_from_float", msgIntFromFloat, v, nil)
	case f > math.MinInt64 && f < math.MaxInt64:
		return pyIntVal{small: int64(f)}, true
	default:
		st.add("int_parsing_size", msgIntSize, v, nil)
	}
	return pyIntVal{}, false
}

func (n *vnode) validateInt(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	x, ok := st.laxInt(v)
	if !ok {
		return out, false
	}
	if n.iMul != nil || n.iLe != nil || n.iLt != nil || n.iGe != nil || n.iGt != nil {
		b := x.toBig()
		switch {
		case n.iMul != nil && new(big.Int).Rem(b, n.iMul).Sign() != 0:
			st.add("multiple_of", "Input should be a multiple of "+n.iMul.String(), v, []KV{{"multiple_of", RawJSON(n.iMul.String())}})
		case n.iLe != nil && b.Cmp(n.iLe) > 0:
			st.add("less_than_equal", "Input should be less than or equal to "+n.iLe.String(), v, []KV{{"le", RawJSON(n.iLe.String())}})
		case n.iLt != nil && b.Cmp(n.iLt) >= 0:
			st.add("less_than", "Input should be less than "+n.iLt.String(), v, []KV{{"lt", RawJSON(n.iLt.String())}})
		case n.iGe != nil && b.Cmp(n.iGe) < 0:
			st.add("greater_than_equal", "Input should be greater than or equal to "+n.iGe.String(), v, []KV{{"ge", RawJSON(n.iGe.String())}})
		case n.iGt != nil && b.Cmp(n.iGt) <= 0:
			st.add("greater_than", "Input should be greater than "+n.iGt.String(), v, []KV{{"gt", RawJSON(n.iGt.String())}})
		default:
			return x.append(out), true
		}
		return out, false
	}
	return x.append(out), true
}

// laxFloat is validate_float in lax mode.
func (st *vstate) laxFloat(v *pyValue) (float64, bool) {
	switch v.kind {
	case pyFloat:
		return v.f, true
	case pyStr:
		if st.surrogateCrash(v) {
			return 0, false
		}
		if f, ok := strAsFloat(v.s); ok {
			return f, true
		}
		st.add("float_parsing", msgFloatParsing, v, nil)
		return 0, false
	case pyBool:
		if v.b {
			return 1, true
		}
		return 0, true
	case pyInt:
		if v.big == nil {
			return float64(v.i), true
		}
		// float(int): an OverflowError beyond the float range, which
		// pydantic reports as float_type.
		f, _ := new(big.Float).SetInt(v.big).Float64()
		if !math.IsInf(f, 0) {
			return f, true
		}
	}
	st.add("float_type", msgFloatType, v, nil)
	return 0, false
}

// strAsFloat is pydantic-core's str_as_float: Rust's f64 parse of the
// trimmed string, else of the untrimmed string without single
// underscores between characters.
func strAsFloat(s string) (float64, bool) {
	if f, ok := rustParseFloat(trimUnicodeSpace(s), true); ok {
		return f, true
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || !containsByte(s, '_') || containsString(s, "__") {
		return 0, false
	}
	stripped := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '_' {
			stripped = append(stripped, s[i])
		}
	}
	return rustParseFloat(string(stripped), true)
}

func (n *vnode) validateFloat(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	f, ok := st.laxFloat(v)
	if !ok {
		return out, false
	}
	ctx := func(key string, bound float64) []KV { return []KV{{key, RawJSON(appendFloat(nil, bound))}} }
	switch {
	case n.fMul != nil && math.Abs(f-math.Round(f / *n.fMul)**n.fMul) > 1e-9:
		st.add("multiple_of", "Input should be a multiple of "+rustFloat(*n.fMul), v, ctx("multiple_of", *n.fMul))
	case n.fLe != nil && !(f <= *n.fLe):
		st.add("less_than_equal", "Input should be less than or equal to "+rustFloat(*n.fLe), v, ctx("le", *n.fLe))
	case n.fLt != nil && !(f < *n.fLt):
		st.add("less_than", "Input should be less than "+rustFloat(*n.fLt), v, ctx("lt", *n.fLt))
	case n.fGe != nil && !(f >= *n.fGe):
		st.add("greater_than_equal", "Input should be greater than or equal to "+rustFloat(*n.fGe), v, ctx("ge", *n.fGe))
	case n.fGt != nil && !(f > *n.fGt):
		st.add("greater_than", "Input should be greater than "+rustFloat(*n.fGt), v, ctx("gt", *n.fGt))
	default:
		dump, ok := appendDumpFloat(out, f)
		st.unencodable = st.unencodable || !ok
		return dump, true
	}
	return out, false
}

func (n *vnode) validateStr(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if v.kind != pyStr {
		st.add("string_type", msgStrType, v, nil)
		return out, false
	}
	if n.constrainedStr() {
		if hasSurrogate(v.s) {
			// pydantic-core needs the str as Rust text: string_unicode,
			// whose input FastAPI then cannot encode.
			st.crash = true
			return out, false
		}
		length := pyLen(v.s)
		switch {
		case n.minLen >= 0 && length < n.minLen:
			st.add("string_too_short", "String should have at least "+plural(n.minLen, "character"), v, []KV{{"min_length", n.minLen}})
			return out, false
		case n.maxLen >= 0 && length > n.maxLen:
			st.add("string_too_long", "String should have at most "+plural(n.maxLen, "character"), v, []KV{{"max_length", n.maxLen}})
			return out, false
		case n.pattern != nil && !n.pattern.MatchString(v.s):
			st.add("string_pattern_mismatch", "String should match pattern '"+n.patternSrc+"'", v, []KV{{"pattern", n.patternSrc}})
			return out, false
		}
	}
	dump, ok := appendDumpString(out, v.s)
	st.unencodable = st.unencodable || !ok
	return dump, true
}

// laxBool is validate_bool in lax mode.
func (st *vstate) laxBool(v *pyValue) (bool, bool) {
	switch v.kind {
	case pyBool:
		return v.b, true
	case pyStr:
		if st.surrogateCrash(v) {
			return false, false
		}
		switch v.s {
		case "0", "f", "F", "n", "N":
			return false, true
		case "1", "t", "T", "y", "Y":
			return true, true
		}
		switch asciiLower(v.s) {
		case "no", "off", "false":
			return false, true
		case "on", "yes", "true":
			return true, true
		}
		st.add("bool_parsing", msgBoolParsing, v, nil)
		return false, false
	case pyInt:
		if v.big == nil {
			switch v.i {
			case 0:
				return false, true
			case 1:
				return true, true
			}
			st.add("bool_parsing", msgBoolParsing, v, nil)
			return false, false
		}
	case pyFloat:
		if f := v.f; f == math.Trunc(f) && f > math.MinInt64 && f < math.MaxInt64 {
			switch f {
			case 0:
				return false, true
			case 1:
				return true, true
			}
			st.add("bool_parsing", msgBoolParsing, v, nil)
			return false, false
		}
	}
	st.add("bool_type", msgBoolType, v, nil)
	return false, false
}

func (n *vnode) validateList(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if n.set {
		return n.validateSet(st, v, out)
	}
	if v.kind != pyList {
		st.add("list_type", msgListType, v, nil)
		return out, false
	}
	count := len(v.items)
	lengthErr := func(short bool, limit int) {
		typ, word := "too_long", "at most"
		key := "max_length"
		if short {
			typ, word, key = "too_short", "at least", "min_length"
		}
		st.add(typ, "List should have "+word+" "+plural(limit, "item")+" after validation, not "+strconv.Itoa(count), v,
			[]KV{{"field_type", "List"}, {key, limit}, {"actual_length", count}})
	}
	if n.elem.kind == vAny {
		// pydantic-core copies a list of Any without looking at the items.
		switch {
		case n.minItems >= 0 && count < n.minItems:
			lengthErr(true, n.minItems)
			return out, false
		case n.maxItems >= 0 && count > n.maxItems:
			lengthErr(false, n.maxItems)
			return out, false
		}
		return n.elem.validate(st, v, out)
	}
	start := len(out)
	errs := len(st.items)
	out = append(out, '[')
	failed := false
	for i := range v.items {
		if i > 0 && !failed {
			out = append(out, ',')
		}
		st.push(i)
		var ok bool
		out, ok = n.elem.validate(st, &v.items[i], out)
		st.pop()
		failed = failed || !ok
		// pydantic counts items as it validates them, good or bad, and
		// stops with too_long alone when there is one too many.
		if n.maxItems >= 0 && i+1 > n.maxItems {
			st.items = st.items[:errs]
			lengthErr(false, n.maxItems)
			return out[:start], false
		}
	}
	if failed {
		return out[:start], false
	}
	if n.minItems >= 0 && count < n.minItems {
		lengthErr(true, n.minItems)
		return out[:start], false
	}
	return append(out, ']'), true
}

// validateSet is pydantic-core's set validator for a list: each item
// validated in order and added to the set; once the set holds more than
// maxItems it stops with too_long alone ("not more", no actual length);
// minItems is checked on the set. The dump lists the distinct items in
// the order they first came (pydantic writes a set in hash order, which
// for str changes with every Python process, so no order is FastAPI's).
// Items are equal when their dumps are: 1, 1.0 and true in a set[int]
// are one item, as in Python.
func (n *vnode) validateSet(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if v.kind != pyList {
		st.add("set_type", "Input should be a valid set", v, nil)
		return out, false
	}
	start := len(out)
	errs := len(st.items)
	out = append(out, '[')
	seen := map[string]bool{}
	failed := false
	for i := range v.items {
		st.push(i)
		item, ok := n.elem.validate(st, &v.items[i], nil)
		st.pop()
		failed = failed || !ok
		if ok && !seen[string(item)] {
			// Counted even after a failed item: the set grows as
			// pydantic adds to it.
			seen[string(item)] = true
			if !failed {
				if len(seen) > 1 {
					out = append(out, ',')
				}
				out = append(out, item...)
			}
		}
		if n.maxItems >= 0 && len(seen) > n.maxItems {
			st.items = st.items[:errs]
			st.add("too_long", "Set should have at most "+plural(n.maxItems, "item")+" after validation, not more", v,
				[]KV{{"field_type", "Set"}, {"max_length", n.maxItems}, {"actual_length", nil}})
			return out[:start], false
		}
	}
	if failed {
		return out[:start], false
	}
	if n.minItems >= 0 && len(seen) < n.minItems {
		st.add("too_short", "Set should have at least "+plural(n.minItems, "item")+" after validation, not "+strconv.Itoa(len(seen)), v,
			[]KV{{"field_type", "Set"}, {"min_length", n.minItems}, {"actual_length", len(seen)}})
		return out[:start], false
	}
	return append(out, ']'), true
}

func (n *vnode) validateDict(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if v.kind != pyDict {
		st.add("dict_type", msgDictType, v, nil)
		return out, false
	}
	if n.elem.kind == vAny {
		return n.elem.validate(st, v, out)
	}
	start := len(out)
	out = append(out, '{')
	failed := false
	for i, k := range v.keys {
		if i > 0 && !failed {
			out = append(out, ',')
		}
		at := len(out)
		if st.rawKeys && hasSurrogate(k) {
			st.unencodable = true
		}
		// model_dump writes str keys through Rust text: a lone surrogate
		// comes out as U+FFFD, one per byte of its encoding.
		out = AppendString(out, lossy(k))
		out = append(out, ':')
		st.push(lossy(k))
		var ok bool
		out, ok = n.elem.validate(st, &v.items[i], out)
		st.pop()
		if !ok {
			failed = true
			out = out[:at]
		}
	}
	if failed {
		return out[:start], false
	}
	return append(out, '}'), true
}

// validate is the model validator, writing the model's dump.
func (m *vmodel) validate(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	raw := st.rawKeys
	st.rawKeys = false
	vals, _, guessed, ok := m.validateFields(st, v)
	st.rawKeys = raw
	if !ok {
		return out, false
	}
	out = append(out, '{')
	for i := range m.fields {
		if i > 0 {
			out = append(out, ',')
		}
		out = AppendString(out, m.fields[i].name)
		out = append(out, ':')
		out = append(out, vals[i]...)
		st.guessed = st.guessed || guessed[i]
	}
	return append(out, '}'), true
}

// validateFields is pydantic-core's model-fields validator (with
// from_attributes, as FastAPI validates): every field in declaration
// order, missing ones reported with the whole input dict as their input,
// then the keys extra="forbid" refuses, in the input's order. It returns
// each field's dump (its default when absent), whether the input gave it,
// and whether the dump holds a guessed default.
func (m *vmodel) validateFields(st *vstate, v *pyValue) (vals [][]byte, set, guessed []bool, ok bool) {
	if v.kind != pyDict {
		st.add("model_attributes_type", msgModelAttrs, v, nil)
		return nil, nil, nil, false
	}
	vals = make([][]byte, len(m.fields))
	set = make([]bool, len(m.fields))
	guessed = make([]bool, len(m.fields))
	failed := false
	var dictRaw []byte
	dictOK := true
	for i := range m.fields {
		f := &m.fields[i]
		fv := v.get(f.name)
		st.push(f.name)
		switch {
		case fv != nil:
			set[i] = true
			before := st.guessed
			st.guessed = false
			var good bool
			vals[i], good = f.node.validate(st, fv, nil)
			failed = failed || !good
			guessed[i] = st.guessed
			st.guessed = before
		case f.required:
			if dictRaw == nil {
				dictRaw, dictOK = appendInput(nil, v)
			}
			st.addRaw("missing", "Field required", dictRaw, dictOK)
			failed = true
		default:
			vals[i], guessed[i] = f.def, f.guessed
		}
		st.pop()
	}
	if m.forbid {
		for i, k := range v.keys {
			if m.has(k) {
				continue
			}
			failed = true
			if hasSurrogate(k) {
				st.crash = true // pydantic-core needs the key as Rust text
				continue
			}
			st.push(k)
			st.add("extra_forbidden", msgExtra, &v.items[i], nil)
			st.pop()
		}
	}
	return vals, set, guessed, !failed
}

func (m *vmodel) has(name string) bool {
	for i := range m.fields {
		if m.fields[i].name == name {
			return true
		}
	}
	return false
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

func containsString(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// trimUnicodeSpace is Rust's str::trim: White_Space at both ends.
func trimUnicodeSpace(s string) string {
	start, end := 0, len(s)
	for start < end {
		r, w := decodeRune(s[start:])
		if !isWhiteSpace(r) {
			break
		}
		start += w
	}
	for end > start {
		r, w := decodeLastRune(s[start:end])
		if !isWhiteSpace(r) {
			break
		}
		end -= w
	}
	return s[start:end]
}

func decodeRune(s string) (rune, int)     { return utf8.DecodeRuneInString(s) }
func decodeLastRune(s string) (rune, int) { return utf8.DecodeLastRuneInString(s) }
func isWhiteSpace(r rune) bool            { return unicode.Is(unicode.White_Space, r) }
