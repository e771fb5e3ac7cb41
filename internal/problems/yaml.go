package problems

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// yamlParserProblems are the problems gopkg.in/yaml.v3's parser (not its
// scanner) reports (parserc.go of v3.0.1).
var yamlParserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// YAMLSyntax reads a syntax error gopkg.in/yaml.v3 reported for text: the
// 1-based line it is at (0 when it names none, as for an unknown alias) and
// its reason, without "yaml: line N: ".
//
// The quirk it works around (yaml.v3 v3.0.1, decode.go parser.fail): the
// line in the message is 1-based for scanner errors but 0-based for parser
// errors ("did not find expected key"), so those were reported a line
// early; and when the problem is on the first line no line is given at
// all. A line past the end (the end of the stream after the last newline)
// is the last line.
func YAMLSyntax(err error, text []byte) (line int, reason string) {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		reason = msg[len(m[0]):]
	} else {
		reason = strings.TrimPrefix(msg, "yaml: ")
	}
	for _, p := range yamlParserProblems {
		if reason == p {
			line++
			break
		}
	}
	if line == 0 && isSyntax(reason) {
		line = 1
	}
	if last := lastLine(text); line > last {
		line = last
	}
	return line, reason
}

// isSyntax tells a syntax error (which yaml.v3 leaves without a line only
// when it is on the first) from an error about the document as a whole.
func isSyntax(reason string) bool {
	return strings.HasPrefix(reason, "did not find") || strings.HasPrefix(reason, "found ") ||
		strings.HasPrefix(reason, "could not find") || strings.HasPrefix(reason, "mapping values are not allowed") ||
		strings.HasPrefix(reason, "block sequence entries are not allowed")
}

// lastLine is the number of text's last line that holds anything.
func lastLine(text []byte) int {
	text = bytes.TrimRight(text, " \t\r\n")
	return bytes.Count(text, []byte{'\n'}) + 1
}
