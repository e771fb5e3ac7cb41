package fastapi

import "slices"

// FormModelInput is the input FastAPI reports with a field a form model
// misses: the dict it validated the model from. It holds the model's
// fields in declaration order (a list field's every value, another
// field's last; an absent optional field's default unless that is None; an
// absent required field not at all), then every other name of the form in
// the order it first came (one value as itself, several as a list).
func (ins *Inputs) FormModelInput(form Form) RawJSON {
	var kvs []KV
	for i := range ins.List {
		in := &ins.List[i]
		if in.In != "body" {
			continue
		}
		entries := form.Values(in.Name)
		switch {
		case len(entries) == 0:
			if !in.Required && in.Default != nil {
				kvs = append(kvs, KV{in.Name, in.Default})
			}
		case in.List:
			kvs = append(kvs, KV{in.Name, entryList(entries)})
		default:
			kvs = append(kvs, KV{in.Name, entryValue(entries[len(entries)-1])})
		}
	}
	for _, name := range ins.extraNames(form) {
		kvs = append(kvs, KV{name, extraValue(form.Values(name))})
	}
	if kvs == nil {
		return RawJSON("{}")
	}
	return RawJSON(AppendValue(nil, kvs))
}

// ExtraForbidden is pydantic's extra_forbidden error for every name of the
// form the model does not declare, when it forbids them.
func (ins *Inputs) ExtraForbidden(form Form) []ErrorItem {
	if !ins.ForbidExtra {
		return nil
	}
	var items []ErrorItem
	for _, name := range ins.extraNames(form) {
		items = append(items, ErrorItem{Type: "extra_forbidden", Loc: []any{"body", name}, Msg: "Extra inputs are not permitted", Input: extraValue(form.Values(name))})
	}
	return items
}

// extraNames is the names of the form no body input declares, in the
// order they first came.
func (ins *Inputs) extraNames(form Form) []string {
	return slices.DeleteFunc(form.Names(), func(name string) bool {
		return slices.ContainsFunc(ins.List, func(in Input) bool { return in.In == "body" && in.Name == name })
	})
}

func extraValue(entries []FormEntry) any {
	if len(entries) == 1 {
		return entryValue(entries[0])
	}
	return entryList(entries)
}

func entryList(entries []FormEntry) []any {
	out := make([]any, len(entries))
	for i, e := range entries {
		out[i] = entryValue(e)
	}
	return out
}

// entryValue is a form value as FastAPI writes it in an error's input: the
// text, or the file as jsonable_encoder writes an UploadFile.
func entryValue(e FormEntry) any {
	if e.File != nil {
		return RawJSON(e.File.AppendInput(nil))
	}
	return e.Value
}
