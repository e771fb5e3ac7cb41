// Package moviemock holds the embedded default contract (the Movie and Review Service),
// openapi.yaml, embedded so that every binary and test reads the same bytes.
// Loading and validating it is internal/spec's job; this package only embeds.
package moviemock

import _ "embed"

// OpenAPIYAML is openapi.yaml as written: the single source of truth for the
// mock, the fixture loader, the scenario loader and the contract runner.
//
//go:embed openapi.yaml
var OpenAPIYAML []byte
