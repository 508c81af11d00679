package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// attackCorpus builds issue 15's hostile design files, one per class: truncation,
// depth, huge strings, billion laughs, byte order marks, invalid UTF-8, NUL and
// control bytes, UTF-32, numbers past range, deep expressions, empty and null
// files, a second document, an unknown alias, wrong version words, one huge
// partition, long names, an unknown region, an unknown review rule.
func attackCorpus(t *testing.T) map[string][]byte {
	t.Helper()
	orders, err := os.ReadFile(filepath.Join("..", "..", "samples", "orders.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const head = "version: 1\ntable: {name: attack-data, key: {partition: PK, sort: SK}}\n"
	c := map[string][]byte{}
	for _, n := range []int{1, 17, len(orders) / 5, len(orders) / 3, len(orders) / 2, len(orders) * 2 / 3, len(orders) - 2} {
		c[fmt.Sprintf("truncated at %d", n)] = orders[:n]
	}
	c["depth 100000"] = []byte(head + "description: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n")
	c["depth of mappings"] = []byte(head + "description:\n" + strings.Repeat(" a:\n", 2000))
	c["5 MB string"] = []byte(head + "description: \"" + strings.Repeat("x", 5<<20) + "\"\n")
	c["5 MB table name"] = []byte("version: 1\ntable: {name: " + strings.Repeat("t", 5<<20) + ", key: {partition: PK}}\n")
	laughs := "version: 1\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
	for i, prev := 'b', 'a'; i <= 'i'; i, prev = i+1, i {
		laughs += fmt.Sprintf("%c: &%c [*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c]\n", i, i, prev, prev, prev, prev, prev, prev, prev, prev, prev)
	}
	c["billion laughs"] = []byte(laughs)
	c["UTF-8 BOM"] = append([]byte("\xef\xbb\xbf"), orders...)
	c["UTF-16 BOM and garbage"] = append([]byte{0xff, 0xfe}, []byte("v\x00e\x00r\x00\x01\x00")...)
	c["UTF-32"] = append([]byte{0xff, 0xfe, 0, 0}, []byte("v\x00\x00\x00")...)
	c["invalid UTF-8"] = bytes.Replace(orders, []byte("orders"), []byte("ord\xffers"), 1)
	c["NUL byte"] = bytes.Replace(orders, []byte("orders"), []byte("ord\x00ers"), 1)
	c["control byte"] = bytes.Replace(orders, []byte("orders"), []byte("ord\x07ers"), 1)
	c["DEL"] = bytes.Replace(orders, []byte("orders"), []byte("ord\x7fers"), 1)
	c["read 1e999999"] = []byte("version: 1\ntable: {name: attack-data, key: {partition: PK}, billing: {provisioned: {read: 1e999999, write: 1}}}\n")
	c["rate 1e20"] = []byte(head + "patterns:\n  - {id: 1, operation: Scan, batch: true, rate: 1e20}\n")
	c["rate 1e308"] = []byte(head + "patterns:\n  - {id: 1, operation: Scan, batch: true, rate: 1e308}\n")
	c["count past range"] = []byte(head + "entities:\n  - {name: a, count: 4611686018427387904}\n")
	c["100000 nested parentheses"] = []byte(head + "patterns:\n  - {id: 1, operation: Scan, batch: true, filter: \"" +
		strings.Repeat("(", 100000) + "a = :v" + strings.Repeat(")", 100000) + "\", values: {\":v\": 1}}\n")
	c["empty"] = nil
	c["comment only"] = []byte("# nothing\n")
	c["null"] = []byte("null\n")
	c["second document"] = append(append([]byte{}, orders...), "---\nversion: 1\n"...)
	c["garbage after ..."] = append(append([]byte{}, orders...), "...\ngarbage\n"...)
	c["unknown alias"] = []byte("version: 1\nname: *nope\n")
	c["version \"1\""] = bytes.Replace(orders, []byte("version: 1"), []byte("version: \"1\""), 1)
	c["version [1]"] = bytes.Replace(orders, []byte("version: 1"), []byte("version: [1]"), 1)
	c["region mars-1"] = bytes.Replace(orders, []byte("version: 1\n"), []byte("version: 1\nregion: mars-1\n"), 1)
	c["unknown review rule"] = append(append([]byte{}, orders...), "review:\n  no-such-rule: {severity: off, reason: x}\n"...)
	var part strings.Builder
	part.WriteString(head + "items:\n")
	for i := range 10000 {
		fmt.Fprintf(&part, "  - {PK: P, SK: \"ITEM#%d\"}\n", i)
	}
	part.WriteString("patterns:\n  - {id: 1, operation: Query, key: \"PK = :p\", values: {\":p\": P}}\n")
	c["10000 items in one partition"] = []byte(part.String())
	return c
}

// positioned is how an exit-2 message starts: FILE:LINE:COL.
var positioned = regexp.MustCompile(`^[^\n]*attack\.yaml:\d+:\d+: `)

// TestAttackCorpus runs check, query and cost on every class of the corpus: each
// must end within the time limit, never panic, and either give a result (exit 0 or
// 1) or refuse the file (exit 2) with a position on every line of the refusal.
func TestAttackCorpus(t *testing.T) {
	const limit = 20 * time.Second
	dir := t.TempDir()
	refused := 0
	defer func() {
		// Most classes are broken files: a corpus that no command refuses tests nothing.
		if refused < 20 {
			t.Errorf("only %d classes were refused with exit 2", refused)
		}
	}()
	for name, data := range attackCorpus(t) {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(dir, "attack.yaml")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, cmd := range []string{"check", "query", "cost"} {
				var out, errb bytes.Buffer
				start := time.Now()
				code := func() (code int) {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("stwb %s panicked: %v", cmd, r)
						}
					}()
					return run([]string{cmd, file}, nil, &out, &errb)
				}()
				took := time.Since(start)
				if took > limit {
					t.Errorf("stwb %s took %v, over %v", cmd, took, limit)
				}
				msg := errb.String()
				if strings.Contains(msg+out.String(), "runtime error") || strings.Contains(msg, "goroutine ") {
					t.Errorf("stwb %s: a crash's words: %.300s", cmd, msg)
				}
				switch code {
				case 0, 1:
				case 2:
					if cmd == "check" {
						refused++
					}
					for _, line := range strings.Split(strings.TrimSpace(msg), "\n") {
						if !positioned.MatchString(line) && !strings.HasPrefix(line, "    ") {
							t.Errorf("stwb %s: exit 2 without a position: %.300q", cmd, line)
						}
						if len(line) > 2000 {
							t.Errorf("stwb %s: a %d-byte message line; long values must be cut", cmd, len(line))
						}
					}
				default:
					t.Errorf("stwb %s: exit %d: %.300s", cmd, code, msg)
				}
			}
		})
	}
}
