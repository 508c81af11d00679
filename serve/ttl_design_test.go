package serve

import (
	"strings"
	"testing"

	"stwb/model"
)

// A design whose table names a TTL attribute is served with TTL on, as stwb deploy
// leaves the table (TTL.html; docs/FORMAT.md `ttl`).
func TestDesignTTLIsOn(t *testing.T) {
	for _, ttl := range []string{"expiresAt", ""} {
		d := &model.Design{Name: "t", Table: model.Table{Name: "ttl-" + map[bool]string{true: "on", false: "off"}[ttl != ""],
			Key: model.KeySchema{Partition: "PK"}, TTL: ttl}}
		s := New(Options{})
		if err := s.AddDesign(d); err != nil {
			t.Fatal(err)
		}
		status, body := s.Call("DescribeTimeToLive", []byte(`{"TableName": "`+d.Table.Name+`"}`))
		want := `"TimeToLiveStatus":"DISABLED"`
		if ttl != "" {
			want = `"TimeToLiveStatus":"ENABLED"`
		}
		if status != 200 || !strings.Contains(strings.ReplaceAll(string(body), " ", ""), want) || ttl != "" && !strings.Contains(string(body), ttl) {
			t.Errorf("ttl %q: DescribeTimeToLive %d %s, want %s", ttl, status, body, want)
		}
	}
}
