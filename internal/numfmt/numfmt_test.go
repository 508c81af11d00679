package numfmt

import "testing"

func TestGroup(t *testing.T) {
	cases := map[string]string{
		"0": "0", "12": "12", "123": "123", "1234": "1,234", "1234567": "1,234,567",
		"-1234": "-1,234", "1234.5678": "1,234.5678", "-999999.5": "-999,999.5", "0.001": "0.001",
	}
	for in, want := range cases {
		if got := Group(in); got != want {
			t.Errorf("Group(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Int(-51000000); got != "-51,000,000" {
		t.Errorf("Int = %q", got)
	}
}
