package contract

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"

	"github.com/moviemock/moviemock/internal/model"
)

// A throwaway account: where the document can register an account (a
// create of the login collection whose body holds a password, open to
// anyone), the sequences register a fresh one and log in as it. The
// operations that change the account they are sent with (its update, its
// password change, its deletion) have their valid requests sent with the
// throwaway's token, never the --username account's; an action on another
// user (follow) acts on the throwaway from the run's own account. The
// throwaway is deleted at the end where the document can delete it, and
// named as left behind where it cannot.

// account is a throwaway account the sequences registered.
type account struct {
	login      *model.Operation
	user, pass string         // what the login takes
	auth       string         // its token, written where the scheme wants it
	rec        map[string]any // the account as the registration answered it
}

// registerOp is the document's registration: a create of the login
// collection whose JSON body (inside its envelope too) holds a password
// and that needs no credential (no security, or an optional one). nil
// when it has none.
func registerOp(m *model.Model) *model.Operation {
	if m == nil || m.Login == nil {
		return nil
	}
	for _, o := range m.Operations {
		if o.Coll != m.Login || o.Kind != model.Create || o.Guarded || o.Op.RequestBody == nil || o.Op.RequestBody.Value == nil {
			continue
		}
		mt := o.Op.RequestBody.Value.Content.Get("application/json")
		if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
			continue
		}
		schema := mt.Schema.Value
		if w := schema.Properties[o.BodyWrap]; o.BodyWrap != "" && w != nil && w.Value != nil {
			schema = w.Value
		}
		if p := schema.Properties["password"]; p != nil && p.Value != nil && p.Value.Type.Is("string") {
			return o
		}
	}
	return nil
}

// throwaway uses the account the registration made for what must never
// touch the run's own: actions on another user, the account's update,
// its password change, its deletion.
func (s *seqRun) throwaway(a *account) {
	s.actOnAccount(a)
	if s.enabled[checkStatefulUpdate] {
		if o := s.findKind(model.UpdateMe); o != nil {
			s.updateMe(a, o)
		}
		if o := s.findKind(model.ChangePassword); o != nil {
			s.changePassword(a, o)
		}
	}
	s.deleteAccount(a)
}

// actOnAccount does, from the run's own account, each action on a record
// the throwaway account names by its key (POST /profiles/{username}/follow,
// then its undo): the flag and count move in the action's answer and in the
// read after (actions). A collection the sequences can create, but the
// accounts', is acted on in its lifecycle instead.
func (s *seqRun) actOnAccount(a *account) {
	if !s.enabled[checkStatefulUpdate] {
		return
	}
	done := map[*model.Collection]bool{}
	for _, o := range s.m.Operations {
		c := o.Coll
		if o.Kind != model.Action || o.Method != "POST" || o.IDParam == "" || c == nil || done[c] || (c != s.m.Login && s.createOp(c) != nil) {
			continue
		}
		key, ok := scalarQuery(a.rec[o.IDParam])
		if !ok || key == "" {
			continue
		}
		done[c] = true
		if s.auth == "" {
			s.note("%s: the run has no account of its own to act on the throwaway account %q from (give --username and --password)", opName(o), a.user)
			continue
		}
		read := s.find(c, model.ReadOne)
		if read == nil {
			continue
		}
		res, v := s.step(read, fmt.Sprintf("%s: the throwaway account %q as %s=%q", opName(read), a.user, o.IDParam, key), ExpectSuccess, call{path: map[string]string{read.IDParam: key}})
		cur, _ := v.(map[string]any)
		bad := expectStatus(res, read.Status, "the account just registered")
		if bad == nil && cur == nil {
			bad = fail("the record", "%s", snippet(res.Response.Body))
		}
		s.verdict(res, checkStatefulCreateRead, bad)
		if bad != nil {
			continue
		}
		s.actions(c, key, cur)
	}
}

// updateMe changes the throwaway account through the update of the
// current user, with its own token: a fresh username and email where the
// body takes them, a new password where it takes one. The answer shows the
// change, the account logs in with what it now is, and its read is the
// answer.
func (s *seqRun) updateMe(a *account, o *model.Operation) {
	jb, _ := s.bodyOf(o)
	if jb == nil {
		return
	}
	body, _, _, err := s.genBody(o, nil, nil, nil)
	if err != nil {
		s.note("%s on the throwaway account: %v", opName(o), err)
		return
	}
	name := fmt.Sprintf("mm_%012x", rand.Uint64()&0xffffffffffff)
	pass := fmt.Sprintf("Mm-%016x", rand.Uint64())
	key := ""
	if c := s.m.Login; c.ID != nil {
		key = c.ID.Name
	}
	body, user, newPass := renameAccount(body, o.BodyWrap, name, pass, a.login.LoginBy, key, a.rec[key])
	want, set, items := jb.read(body)
	if items != nil {
		s.note("%s on the throwaway account: the changed body is refused by its own schema (%v %s)", opName(o), items[0].Loc, items[0].Msg)
		return
	}
	want, set = unwrapSent(o, want, set)
	delete(want, "password")
	res, v := s.step(o, fmt.Sprintf("%s: the throwaway account %q is changed; the change shows", opName(o), a.user), ExpectSuccess, call{json: body, auth: &a.auth})
	rec, _ := v.(map[string]any)
	bad := expectStatus(res, o.Status, "the declared status of "+opName(o))
	if bad == nil && rec != nil {
		bad = sentFieldsKept(rec, want, set, s.m.Login, nil)
		if _, leaked := rec["password"]; bad == nil && leaked {
			bad = fail("no password in the answer", "password %s", quoteAny(rec["password"]))
		}
	}
	s.verdict(res, checkStatefulUpdate, bad)
	if res.Response.Status/100 != 2 {
		return
	}
	if user == "" {
		user = a.user
	}
	if newPass == "" {
		newPass = a.pass
	}
	if user != a.user || newPass != a.pass {
		tok := s.accountLogin(a.login, user, newPass, fmt.Sprintf("the throwaway account's credentials as %s changed them", opName(o)), checkStatefulUpdate)
		if tok == "" {
			return
		}
		a.user, a.pass, a.auth = user, newPass, s.r.cred.value(tok)
	}
	if me := s.findKind(model.CurrentUser); me != nil && rec != nil {
		res, v := s.step(me, fmt.Sprintf("%s → %s: the throwaway account reads as changed", opName(o), opName(me)), ExpectSuccess, call{auth: &a.auth})
		bad := expectStatus(res, me.Status, "the token's user")
		if bad == nil && !reflect.DeepEqual(withoutToken(v), withoutToken(rec)) {
			bad = fail("the "+o.Method+" answer", "%s", firstDifference(withoutToken(v), withoutToken(rec), ""))
		}
		s.verdict(res, checkStatefulUpdate, bad)
	}
}

// renameAccount gives the account a body changes (inside its envelope
// wrap, when it has one) a fresh username and email and the password pass,
// each where the body holds that member. The member key, the account's
// key (RealWorld's username, in /profiles/{username}), keeps the account's
// value keyVal: the run's later steps name the account by it, so a change
// of it is not sent. It returns the body and
// what the login then takes (user "" when the body does not change it;
// newPass "" when it sends no password).
func renameAccount(body []byte, wrap, name, pass, by, key string, keyVal any) (out []byte, user, newPass string) {
	var outer map[string]any
	if json.Unmarshal(body, &outer) != nil {
		return body, "", ""
	}
	inner := outer
	if wrap != "" {
		if inner, _ = outer[wrap].(map[string]any); inner == nil {
			return body, "", ""
		}
	}
	if _, ok := inner["username"]; ok && key != "username" {
		inner["username"] = name
		if by == "username" {
			user = name
		}
	}
	if _, ok := inner["email"]; ok && key != "email" {
		inner["email"] = name + "@example.com"
		if by != "username" {
			user = name + "@example.com"
		}
	}
	if _, ok := inner[key]; ok && key != "" && keyVal != nil {
		inner[key] = keyVal
	}
	if _, ok := inner["password"]; ok {
		inner["password"], newPass = pass, pass
	}
	raw, err := json.Marshal(outer)
	if err != nil {
		return body, "", ""
	}
	return raw, user, newPass
}

// changePassword changes the throwaway account's password with its own
// token: the change answers its declared status, the new password logs in
// and the old one no longer does.
func (s *seqRun) changePassword(a *account, o *model.Operation) {
	next := fmt.Sprintf("Mm-%016x", rand.Uint64())
	body, _, _, err := s.genBody(o, map[string]any{o.Passwords[0]: a.pass, o.Passwords[1]: next}, nil, nil)
	if err != nil {
		s.note("%s on the throwaway account: %v", opName(o), err)
		return
	}
	res, _ := s.step(o, fmt.Sprintf("%s: the throwaway account %q changes its password", opName(o), a.user), ExpectSuccess, call{json: body, auth: &a.auth})
	s.verdict(res, checkStatefulUpdate, expectStatus(res, o.Status, "the declared status of "+opName(o)))
	if res.Response.Status/100 != 2 {
		return
	}
	tok := s.accountLogin(a.login, a.user, next, "the new password after "+opName(o), checkStatefulUpdate)
	s.loginRefused(a.login, a.user, a.pass, "the old password after "+opName(o), checkStatefulUpdate)
	if tok != "" {
		a.pass, a.auth = next, s.r.cred.value(tok)
	}
}

// deleteAccount deletes the throwaway account: with its own token where
// the document deletes the current user (its token then reads no user,
// and its credentials log in no more), else through the delete of the
// login collection's records with the run's token. Where neither is
// possible, a note names the account left behind.
func (s *seqRun) deleteAccount(a *account) {
	if o := s.findKind(model.DeleteMe); o != nil {
		res, _ := s.step(o, fmt.Sprintf("%s: the throwaway account %q is deleted", opName(o), a.user), ExpectSuccess, call{auth: &a.auth})
		s.verdict(res, checkStatefulDelete, expectStatus(res, o.Status, "the declared status of "+opName(o)))
		if res.Response.Status/100 != 2 {
			s.note("the throwaway account %q stays: %s answered %s", a.user, opName(o), statusText(&res.Response))
			return
		}
		if me := s.findKind(model.CurrentUser); me != nil {
			res, _ := s.step(me, fmt.Sprintf("%s → %s: the deleted account's token reads no user", opName(o), opName(me)), ExpectAnswered, call{auth: &a.auth})
			var bad *verdict
			if st := res.Response.Status; st/100 != 4 {
				bad = fail("a refusal (401, 403 or 404): the account was deleted", "%s", statusText(&res.Response))
			}
			s.verdict(res, checkStatefulDelete, bad)
		}
		s.loginRefused(a.login, a.user, a.pass, "the deleted account's credentials", checkStatefulDelete)
		return
	}
	if o := s.find(s.m.Login, model.Delete); o != nil && s.auth != "" && s.addressable(o) {
		if id, ok := keyOf(a.rec, o.IDParam); ok {
			resp := s.r.send(s.ctx, s.plainRequest(o, map[string]string{o.IDParam: id}, nil))
			if resp.Status/100 == 2 {
				return
			}
			s.note("the throwaway account %q stays: %s answered %s", a.user, opName(o), statusText(&resp))
			return
		}
	}
	s.note("the throwaway account %q stays: the document has no delete of an account", a.user)
}

// accountLogin logs in through the login with user and pass, judged by
// check: the login's declared success and a token. It returns the token.
func (s *seqRun) accountLogin(login *model.Operation, user, pass, what, check string) string {
	c := s.loginCall(login, user, pass)
	res, v := s.step(login, fmt.Sprintf("%s with %s: answers a token", opName(login), what), ExpectSuccess, c)
	tok := model.TokenIn(v)
	bad := expectStatus(res, login.Status, "a login with valid credentials")
	if bad == nil && tok == "" {
		want := "an access_token"
		if login.Inputs.JSON != nil {
			want = "a token"
		}
		bad = fail(want, "%s", snippet(res.Response.Body))
	}
	s.verdict(res, check, bad)
	return tok
}

// loginRefused logs in with credentials that must no longer work (an old
// password, a deleted account): a refusal (4xx) is owed.
func (s *seqRun) loginRefused(login *model.Operation, user, pass, what, check string) {
	c := s.loginCall(login, user, pass)
	res, _ := s.step(login, fmt.Sprintf("%s with %s: refused", opName(login), what), ExpectUnauthorized, c)
	var bad *verdict
	if st := res.Response.Status; st/100 != 4 {
		bad = fail("a refusal (4xx): "+what+" must not log in", "%s", statusText(&res.Response))
	}
	s.verdict(res, check, bad)
}
