package confine

import (
	"errors"
	"testing"
)

func TestUserNamespaceSettings(t *testing.T) {
	for _, tc := range []struct {
		name    string
		euid    int
		sysctls map[string]string
		ok      bool
	}{
		{"no settings readable", 1000, nil, true},
		{"all allow", 1000, map[string]string{"user.max_user_namespaces": "63000", "kernel.unprivileged_userns_clone": "1", "kernel.apparmor_restrict_unprivileged_userns": "0"}, true},
		{"disabled for everyone", 0, map[string]string{"user.max_user_namespaces": "0"}, false},
		{"Debian switch off", 1000, map[string]string{"kernel.unprivileged_userns_clone": "0"}, false},
		{"Debian switch off, root", 0, map[string]string{"kernel.unprivileged_userns_clone": "0"}, true},
		{"Ubuntu AppArmor restriction", 1000, map[string]string{"kernel.apparmor_restrict_unprivileged_userns": "1"}, false},
		{"Ubuntu AppArmor restriction, root", 0, map[string]string{"kernel.apparmor_restrict_unprivileged_userns": "1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := userNamespaceSettings(tc.euid, func(name string) (string, bool) {
				v, ok := tc.sysctls[name]
				return v, ok
			})
			if (err == nil) != tc.ok {
				t.Fatalf("userNamespaceSettings() = %v, want ok=%v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrUnavailable) {
				t.Errorf("error %v does not wrap ErrUnavailable", err)
			}
		})
	}
}

func TestSplitPath(t *testing.T) {
	for p, want := range map[string]int{"/": 0, "/a": 1, "/a/b/c": 3} {
		if got := splitPath(p); len(got) != want {
			t.Errorf("splitPath(%q) = %q", p, got)
		}
	}
	for _, tc := range [][3]string{{"/", "/a/b", "/a"}, {"/a", "/a/b/c", "/a/b"}, {"/a/b", "/a/b/c", "/a/b/c"}} {
		if got := next(tc[0], tc[1]); got != tc[2] {
			t.Errorf("next(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}
