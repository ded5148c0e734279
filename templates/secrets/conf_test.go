package secrets

import "testing"

func TestConfMasksSecretKeysInAnyFormat(t *testing.T) {
	in := "[main]\nuser = bench\npassword = pw1\n[filter:tempauth]\nuser_a_b = k .admin\napi_key: abc\n" +
		"listen 1.2.3.4:80;\nnote = has long-secret inside\n"
	want := "[main]\nuser = bench\npassword = " + Masked + "\n[filter:tempauth]\nuser_a_b = " + Masked +
		"\napi_key: " + Masked + "\nlisten 1.2.3.4:80;\nnote = has " + Masked + " inside\n"
	if got := New("long-secret").Conf(in); got != want {
		t.Fatalf("Conf:\n got %q\nwant %q", got, want)
	}
}
