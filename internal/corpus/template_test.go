package corpus

import "testing"

func TestTemplate(t *testing.T) {
	paths := []string{"/", "/items/", "/items/{item_id}", "/items/special", "/users/{username}/posts"}
	for _, tc := range []struct{ path, want string }{
		{"/items/42", "/items/{item_id}"},
		{"/items/special", "/items/special"},
		{"/items/", "/items/"},
		{"/users/mm5uz0fj1/posts", "/users/{username}/posts"},
		{"/moviemock-corpus/no/such/path", "/moviemock-corpus/no/such/path"},
		{"/users/x", "/users/x"},
	} {
		if got := template(paths, tc.path); got != tc.want {
			t.Errorf("template(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
