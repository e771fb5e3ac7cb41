package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// maxJSONDepth bounds the nesting of a JSON document as checkTree bounds
// a YAML one's: a contract nested deeper is refused while it is parsed.
const maxJSONDepth = MaxDepth

// isJSON reports whether data is a JSON document rather than YAML: its
// first non-space byte opens an object.
func isJSON(data []byte) bool {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	return len(trimmed) > 0 && trimmed[0] == '{'
}

// parseJSONNode parses a JSON document into the YAML node tree the rest of
// the package reads (key order, values as written). A JSON document is
// parsed as JSON, not as YAML: yaml.v3 (v3.0.1) refuses what JSON allows,
// such as a character outside the Basic Multilingual Plane written as a
// surrogate pair ("\ud83d\ude80"), which Python's json.dumps writes for
// every emoji in a FastAPI document. Duplicate keys are refused, as
// yaml.v3 refuses them.
func parseJSONNode(data []byte) (*yaml.Node, error) {
	p := &jsonParser{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("line %d: data after the document", p.line())
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{n}, Line: 1, Column: 1}, nil
}

type jsonParser struct {
	data []byte
	dec  *json.Decoder
	// lineAt, lines: the line count up to offset lineAt, advanced as the
	// decoder moves on (never rescanned from the start).
	lineAt int64
	lines  int
}

// line is the line of the decoder's position, counted from 1.
func (p *jsonParser) line() int {
	off := min(p.dec.InputOffset(), int64(len(p.data)))
	if off > p.lineAt {
		p.lines += bytes.Count(p.data[p.lineAt:off], []byte{'\n'})
		p.lineAt = off
	}
	return p.lines + 1
}

func (p *jsonParser) value(depth int) (*yaml.Node, error) {
	line := p.line()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, fmt.Errorf("line %d: %w", line, err)
	}
	return p.node(tok, depth, line)
}

func (p *jsonParser) node(tok json.Token, depth, line int) (*yaml.Node, error) {
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxJSONDepth {
			return nil, &LimitError{Limit: "depth limit", Detail: fmt.Sprintf("line %d: nested more than %d levels deep", line, maxJSONDepth)}
		}
		if t == '[' {
			n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: line}
			for p.dec.More() {
				c, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, c)
			}
			_, err := p.dec.Token() // ]
			return n, err
		}
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle, Line: line}
		seen := map[string]bool{}
		for p.dec.More() {
			kline := p.line()
			k, err := p.dec.Token()
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", kline, err)
			}
			key, _ := k.(string)
			if seen[key] {
				return nil, fmt.Errorf("line %d: mapping key %q already defined", kline, key)
			}
			seen[key] = true
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: key, Line: kline}, v)
		}
		_, err := p.dec.Token() // }
		return n, err
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: t, Line: line}, nil
	case json.Number:
		// The tag YAML would resolve the same plain text to: !!int, or
		// !!float for a fraction, an exponent or an integer too large.
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: string(t), Line: line}
		n.Tag = n.ShortTag()
		return n, nil
	case bool:
		v := "false"
		if t {
			v = "true"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: v, Line: line}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null", Line: line}, nil
	}
	return nil, fmt.Errorf("line %d: unexpected %v", line, tok)
}
