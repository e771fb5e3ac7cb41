package scenarios

import (
	"testing"

	"github.com/moviemock/moviemock/internal/model"
)

func TestRedactJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"username":"a","password":"p"}`, `{"username":"a","password":"[redacted]"}`},
		{`{"user":{"new_password":{"x":1},"name":"b"},"list":[{"client_secret":"s"},1,"two",null]}`,
			`{"user":{"new_password":"[redacted]","name":"b"},"list":[{"client_secret":"[redacted]"},1,"two",null]}`},
		{`{"pass\u0077ord":"p","refresh_token":"t","token":"u","tokens":3}`, `{"pass\u0077ord":"[redacted]","refresh_token":"[redacted]","token":"[redacted]","tokens":3}`},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`"password"`, `"password"`},
		{`12.5e3`, `12.5e3`},
	} {
		if got := string(redactJSON([]byte(c.in), model.SecretName)); got != c.want {
			t.Errorf("redactJSON(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}
