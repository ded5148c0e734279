package secrets

import (
	"strings"
	"testing"
)

func TestMaskValuesLongestFirstAndJSONForms(t *testing.T) {
	s := New("abc", "lab-key", "lab-key-2", `pa"ss\word`)
	in := `a lab-key-2 b lab-key c abc d {"k":"pa\"ss\\word"} e pa"ss\word`
	want := `a (sensitive) b (sensitive) c abc d {"k":"(sensitive)"} e (sensitive)`
	if got := s.Mask(in); got != want {
		t.Fatalf("Mask:\n got %s\nwant %s", got, want)
	}
	if s.Len() != 4 { // lab-key, lab-key-2, the quoted value and its JSON form; "abc" is too short
		t.Fatalf("Len = %d, want 4", s.Len())
	}
}

func TestTokensMaskedByEveryone(t *testing.T) {
	in := "tok AUTH_tk4f3a9b and gAAAAABk_x-Y= end AUTH_bench"
	want := "tok " + Masked + " and " + Masked + " end AUTH_bench"
	if got := Tokens(in); got != want {
		t.Fatalf("Tokens = %q", got)
	}
	var none *Set
	if got := none.Mask(in); got != want {
		t.Fatalf("nil Set's Mask = %q", got)
	}
	if got := New("secret-x").Mask(in + " secret-x"); got != want+" "+Masked {
		t.Fatalf("Set.Mask = %q", got)
	}
}

func TestKey(t *testing.T) {
	for _, c := range []struct {
		section, key string
		want         bool
	}{
		{"filter:tempauth", "user_admin_admin", true},
		{"DEFAULT", "user_admin_admin", false},
		{"swift-hash", "swift_hash_path_suffix", true},
		{"filter:s3", "secret_access", true},
		{"", "admin_password", true},
		{"", "db_passwd", true},
		{"", "auth_key", true},
		{"", "Auth_Token", true},
		{"", "token_life", false},
		{"DEFAULT", "workers", false},
		{"", "users", false},
	} {
		if got := Key(c.section, c.key); got != c.want {
			t.Errorf("Key(%q, %q) = %v, want %v", c.section, c.key, got, c.want)
		}
	}
}

func TestEntry(t *testing.T) {
	s := New("hunter22")
	if got := s.Entry("filter:tempauth", "user_a_b", "ab .admin", false); got != Masked {
		t.Errorf("secret key: %q", got)
	}
	if got := s.Entry("DEFAULT", "x", "ab", true); got != Masked {
		t.Errorf("sensitive entry: %q", got)
	}
	if got := s.Entry("DEFAULT", "note", "pw hunter22", false); got != "pw "+Masked {
		t.Errorf("value in free text: %q", got)
	}
}

func TestHCL(t *testing.T) {
	in := "variable \"auth_key\" {\n  default   = \"lab-bench-key\"\n  sensitive = true\n}\n" +
		"variable \"users\" {\n  default = \"64\"\n}\n" +
		"auth {\n  key = var.auth_key\n  password = \"hunter22\"\n  user = \"bench:bench\"\n}\n" +
		"x = \"lab-bench-key again\"\nlog = \"AUTH_tk0123abc\"\n"
	out := HCL(in)
	for _, gone := range []string{"lab-bench-key", "hunter22", "AUTH_tk0123abc"} {
		if strings.Contains(out, gone) {
			t.Errorf("%q not masked:\n%s", gone, out)
		}
	}
	for _, kept := range []string{`default = "64"`, "key = var.auth_key", `user = "bench:bench"`, `password = "(sensitive)"`, `x = "(sensitive) again"`} {
		if !strings.Contains(out, kept) {
			t.Errorf("lost %q:\n%s", kept, out)
		}
	}
}
