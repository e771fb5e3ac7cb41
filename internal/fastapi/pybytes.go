package fastapi

import (
	"encoding/base64"
	"strconv"
)

// This file is pydantic's bytes validation for what json.loads gave: a
// str, taken as its UTF-8 bytes (val_json_bytes "utf8", the default;
// format binary in the schema) or decoded from base64 (val_json_bytes
// "base64"; contentEncoding: base64), and the dump model_dump(mode="json")
// writes with the matching ser_json_bytes.

func (n *vnode) validateBytes(st *vstate, v *pyValue, out []byte) ([]byte, bool) {
	if v.kind != pyStr {
		st.add("bytes_type", "Input should be a valid bytes", v, nil)
		return out, false
	}
	if st.surrogateCrash(v) {
		return out, false
	}
	if !n.base64 {
		return AppendString(out, v.s), true
	}
	data, why := decodeBase64(v.s)
	if why != "" {
		st.add("bytes_invalid_encoding", "Data should be valid base64: "+why, v, []KV{{"encoding", "base64"}, {"encoding_error", why}})
		return out, false
	}
	return AppendString(out, base64.URLEncoding.EncodeToString(data)), true
}

// decodeBase64 is pydantic-core's base64 decoding (val_json_bytes
// "base64"): the URL-safe alphabet with optional padding, and the
// standard alphabet when that fails on a "/" or "+". The error text is the
// base64 crate's (0.22) DecodeError.
func decodeBase64(s string) ([]byte, string) {
	data, err := b64Decode(s, true)
	if err != nil && err.kind == b64InvalidByte && (err.b == '/' || err.b == '+') {
		data, err = b64Decode(s, false)
	}
	if err != nil {
		return nil, err.String()
	}
	return data, ""
}

type b64ErrKind uint8

const (
	b64InvalidByte b64ErrKind = iota
	b64InvalidLength
	b64InvalidLastSymbol
)

type b64Error struct {
	kind   b64ErrKind
	offset int
	b      byte
}

func (e *b64Error) String() string {
	switch e.kind {
	case b64InvalidByte:
		return "Invalid symbol " + strconv.Itoa(int(e.b)) + ", offset " + strconv.Itoa(e.offset) + "."
	case b64InvalidLength:
		return "Invalid input length: " + strconv.Itoa(e.offset)
	}
	return "Invalid last symbol " + strconv.Itoa(int(e.b)) + ", offset " + strconv.Itoa(e.offset) + "."
}

func b64Value(c byte, urlSafe bool) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case urlSafe && c == '-' || !urlSafe && c == '+':
		return 62
	case urlSafe && c == '_' || !urlSafe && c == '/':
		return 63
	}
	return -1
}

// b64Decode follows the base64 crate's GeneralPurpose decoder with
// DecodePaddingMode::Indifferent and no trailing bits allowed: every
// complete quad but a padded last one decoded first, a lone invalid last
// byte reported before anything else, then the last at most four
// symbols with their padding.
func b64Decode(s string, urlSafe bool) ([]byte, *b64Error) {
	rem := len(s) % 4
	if rem == 1 {
		if c := s[len(s)-1]; c != '=' && b64Value(c, urlSafe) < 0 {
			return nil, &b64Error{kind: b64InvalidByte, offset: len(s) - 1, b: c}
		}
	}
	quads := len(s) - rem
	if rem == 0 {
		quads = max(quads-4, 0)
	}
	out := make([]byte, 0, len(s)*3/4)
	for i := 0; i < quads; i += 4 {
		var n uint32
		for j := 0; j < 4; j++ {
			v := b64Value(s[i+j], urlSafe)
			if v < 0 {
				return nil, &b64Error{kind: b64InvalidByte, offset: i + j, b: s[i+j]}
			}
			n = n<<6 | uint32(v)
		}
		out = append(out, byte(n>>16), byte(n>>8), byte(n))
	}
	var morsels [4]uint32
	count, pads, firstPad := 0, 0, 0
	var last byte
	for k := quads; k < len(s); k++ {
		c := s[k]
		if c == '=' {
			if k-quads < 2 {
				return nil, &b64Error{kind: b64InvalidByte, offset: k, b: c}
			}
			if pads == 0 {
				firstPad = k
			}
			pads++
			continue
		}
		if pads > 0 {
			return nil, &b64Error{kind: b64InvalidByte, offset: firstPad, b: '='}
		}
		v := b64Value(c, urlSafe)
		if v < 0 {
			return nil, &b64Error{kind: b64InvalidByte, offset: k, b: c}
		}
		last = c
		morsels[count] = uint32(v)
		count++
	}
	if len(s) > 0 && count < 2 {
		return nil, &b64Error{kind: b64InvalidLength, offset: quads + count}
	}
	n := morsels[0]<<26 | morsels[1]<<20 | morsels[2]<<14 | morsels[3]<<8
	keep := count * 6 / 8
	if mask := ^uint32(0) >> (keep * 8); count > 0 && n&mask != 0 {
		return nil, &b64Error{kind: b64InvalidLastSymbol, offset: quads + count - 1, b: last}
	}
	for i := 0; i < keep; i++ {
		out = append(out, byte(n>>(24-8*i)))
	}
	return out, nil
}
