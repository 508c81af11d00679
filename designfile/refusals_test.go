package designfile

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// TestRefusalsNameTheirPlace: issue 15's "unclear errors", each now with a position
// (file:line:col, at least 1:1; for a byte, its line and column) and words in the
// user's terms. YAML 1.2 "5.1 Character Set" defines the bytes a file may hold.
func TestRefusalsNameTheirPlace(t *testing.T) {
	const table = "table: {name: tbl-data, key: {partition: PK}}\n"
	utf32 := []byte{0xff, 0xfe, 0, 0}
	for _, r := range "version: 1\n" {
		utf32 = append(utf32, byte(r), 0, 0, 0)
	}
	var utf16le []byte
	for _, u := range utf16.Encode([]rune("version: 1\n\x01")) {
		utf16le = append(utf16le, byte(u), byte(u>>8))
	}
	_ = utf16le
	cases := []struct{ name, text, want string }{
		{"NUL", "version: 1\n\x00" + table, "f.yaml:2:1: a NUL byte (0x00) is not allowed in YAML"},
		{"control", "version: 1\ntable: {name: a\x01b}\n", "f.yaml:2:16: control character U+0001 is not allowed"},
		{"DEL", "version: 1\nname: a\x7f\n" + table, "f.yaml:2:8: control character U+007F is not allowed"},
		{"invalid UTF-8", "version: 1\nname: Z\xfcrich\n" + table, "f.yaml:2:8: byte 0xfc is not UTF-8"},
		// An overlong sequence ("/" as two bytes, and as three): yaml.v3 says
		// "invalid length of a UTF-8 sequence", with no place (issue 24).
		{"overlong UTF-8", "version: 1\nname: a\xc0\xafb\n" + table, "f.yaml:2:8: byte 0xc0 is not UTF-8"},
		{"overlong UTF-8, 3 bytes", "version: 1\ndescription: x\n" + table + "# \xe0\x80\xaf\n", "f.yaml:4:3: byte 0xe0 is not UTF-8"},
		{"UTF-32", string(utf32), "f.yaml:1:1: the file is UTF-32 text"},
		{"unknown alias", "version: 1\nname: *nope\n" + table, "f.yaml:2:7: YAML alias *nope names no anchor &nope"},
		{"empty", "", "f.yaml:1:1: the design file is empty"},
		{"comment only", "# nothing yet\n", "f.yaml:1:1: the design file is empty"},
		{"null", "null\n", "f.yaml:1:1: the design file holds only null"},
		{"version string", "version: \"1\"\n" + table, `f.yaml:1:10: version must be a number, not the string "1". remove the quotes`},
		{"version 1.0", "version: 1.0\n" + table, `f.yaml:1:10: version must be a whole number, not "1.0"`},
		{"version list", "version: [1]\n" + table, "f.yaml:1:10: version must be a scalar"},
		{"read 1e999999", "version: 1\ntable: {name: tbl-data, key: {partition: PK}, billing: {provisioned: {read: 1e999999, write: 1}}}\n",
			`table.billing.provisioned.read must be a whole number, not "1e999999"`},
		{"rate 1e308", "version: 1\n" + table + "patterns:\n  - {id: 1, operation: Scan, rate: 1e308}\n", "f.yaml:4:36: pattern 1.rate 1e308 is out of range"},
		{"rate 1e999999", "version: 1\n" + table + "patterns:\n  - {id: 1, operation: Scan, rate: 1e999999}\n", "pattern 1.rate 1e999999 is out of range"},
		{"second document", "version: 1\n" + table + "---\nversion: 1\n", "f.yaml:3:1: a second YAML document starts here"},
		{"garbage after ...", "version: 1\n" + table + "...\ngarbage\n", "f.yaml:3:1: a second YAML document starts here"},
	}
	for _, c := range cases {
		_, err := Parse("f.yaml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %q", c.name, err, c.want)
			continue
		}
		if strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("%s: %d errors for one mistake:\n%v", c.name, strings.Count(err.Error(), "\n")+1, err)
		}
	}
	// What is not a second document: a leading ---, a closing --- or ... with
	// only comments after it.
	for _, ok := range []string{"---\nversion: 1\n" + table, "version: 1\n" + table + "---\n", "version: 1\n" + table + "...\n# end\n",
		"version: 1\ndescription: |\n  ----- not a marker\n" + table} {
		if _, err := Parse("f.yaml", []byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}
