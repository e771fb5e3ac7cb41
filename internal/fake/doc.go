// Package fake generates realistic values for any schema of an OpenAPI
// contract, as a FastAPI application would send them, deterministically from
// a gofakeit seed.
//
// A Generator is compiled once per contract: every schema it meets becomes a
// plan (allOf merged, unions split into branches, bounds and patterns
// prepared, a value source chosen from the property's name). Append then
// walks the plan with the caller's faker and writes canonical FastAPI JSON:
// compact, non-ASCII raw, floats as Python writes them, date-times and
// times as pydantic writes them (or as the DateTimes and Times options
// say: a framework profile's form), object members in the order the
// document declares them. The same seed gives the same bytes.
//
// How a value is chosen, in order:
//
//   - recursion: an object schema nested in itself twice (or anything 12
//     levels deep) gets a minimal value: null where nullable, the default
//     if any, minItems items, only the required properties and the cheap
//     optional ones (never one leading back into an object being
//     written, so an optional self-reference ends);
//   - null, where the schema admits it: one value in five for an optional
//     property, one in ten for a required one (a name may say otherwise: a
//     death day is mostly null);
//   - the default, one value in ten, when it validates;
//   - with Examples, the examples of the value's own schema (a property's
//     example or examples, not a component's it names), one value in two,
//     one of them, where the schema accepts it and it holds no object;
//   - enum and const: a member (that validates against the rest of the
//     schema);
//   - anyOf and oneOf: a branch (the discriminator's value forced into it:
//     one the branch allows, by its enum, a mapping key naming it or its
//     schema's name; without a mapping, a oneOf value matching two
//     branches is redrawn); a type list is a union too;
//   - then by type. Strings: the name's value (poster_url an image URL,
//     created_at a date-time, email an email…) if it suits the format, else
//     the format's (date, date-time, time, duration, uuid, email, uri,
//     hostname, ipv4, ipv6, password, byte, binary), else the pattern's
//     (gofakeit's Regex), else a word or two; prose is cut or padded to
//     minLength/maxLength (in runes, as pydantic counts); anything that then
//     misses the pattern is retried in the pattern's alphabet, with
//     gofakeit's Regex, and with a match built to the length. Numbers: the
//     name's usual range (a year, an age, a price with two decimals…) cut to
//     minimum/maximum (exclusive ones too) and multipleOf. Arrays: 0–4 items
//     within minItems/maxItems, unique when asked, prefixItems and contains
//     honoured. Objects: every property in the document's order (optional
//     ones left out at random down to maxProperties); a dict
//     (additionalProperties, or a bare "type: object") gets a few entries
//     with keys that suit its name (reactions, ratings, translations…) or
//     propertyNames, as many as minProperties and maxProperties allow;
//     with patternProperties its members are made for them (a key the
//     pattern makes, a value of its schema), and a declared property
//     whose name matches a pattern satisfies its schema too.
//
// Where a schema cannot be satisfied it writes its best attempt instead of
// failing. Keywords it does not model (their values may then be invalid):
// dependentRequired and dependentSchemas (every property is written
// anyway), if/then/else, maxContains, unevaluatedItems and
// unevaluatedProperties, $dynamicRef. readOnly is ignored; writeOnly
// properties are left out of answers (AppendAnswer), kept in Append's
// values. A "not" is honoured by redrawing the value a few times. A pattern
// only the ECMA-262 engine runs (a lookahead, a backreference) is checked
// with it, and answered with the schema's example where that matches (a
// note where nothing can be made). A oneOf value other members accept too
// is set apart by a property one of them declares, of a type it refuses.
//
// It is not a fixture loader nor a data set: it knows no endpoint, keeps no
// state between values, and does not make records agree with each other
// (a review's author_id is not its author's id).
package fake
