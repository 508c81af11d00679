package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestLoadRefusals: stwb load refuses, before any traffic, a run with no
// endpoint, a bad scale or duration, and an endpoint that is not this machine
// unless --yes says so.
func TestLoadRefusals(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"load", "../../throttle/testdata/counter.yaml"}, "--endpoint is required"},
		{[]string{"load", "../../throttle/testdata/counter.yaml", "--endpoint", "http://127.0.0.1:1", "--scale", "0.5"}, "--scale must be 1 or more"},
		{[]string{"load", "../../throttle/testdata/counter.yaml", "--endpoint", "http://127.0.0.1:1", "--duration", "0s"}, "--duration from 1s"},
		{[]string{"load", "../../throttle/testdata/counter.yaml", "--endpoint", "https://dynamodb.eu-west-1.amazonaws.com"}, "pass --yes"},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errb.String(), tc.want)
		}
	}
	if !loopback("http://localhost:8000") || !loopback("http://[::1]:8000") || loopback("http://10.0.0.1:8000") {
		t.Error("loopback misjudges an endpoint")
	}
}
