package main

import (
	"strings"
	"testing"
)

func TestSanitizedNpmrc(t *testing.T) {
	in := `registry=https://npm.example.com/
@corp:registry=https://npm.corp.example/
//npm.corp.example/:_authToken=npm_SECRET1
//registry.npmjs.org/:_authToken = npm_SECRET2
_auth=c2VjcmV0
//host/:_password=SECRET3
//host/:username=bob
email=bob@example.com
proxy=http://proxy.example:8080
cafile=/etc/ssl/corp.pem
; a comment
`
	out := string(sanitizedNpmrc([]byte(in)))
	for _, secret := range []string{"SECRET1", "SECRET2", "c2VjcmV0", "SECRET3", "username=bob"} {
		if strings.Contains(out, secret) {
			t.Errorf("the copy keeps %q:\n%s", secret, out)
		}
	}
	for _, keep := range []string{"registry=https://npm.example.com/", "@corp:registry=", "email=bob@example.com", "proxy=http://proxy.example:8080", "cafile=/etc/ssl/corp.pem", "; a comment"} {
		if !strings.Contains(out, keep) {
			t.Errorf("the copy lost %q:\n%s", keep, out)
		}
	}
}
