package serve

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"stwb/dynamojson"
	"stwb/model"
)

// Dump writes a table's items as an S3 table export: one {"Item": {...}} per line,
// DynamoDB JSON, the format `stwb import --format dynamodb-json` reads, so a test
// run's final state can be read or merged back into the design. table may be ""
// when one table is served.
func (s *Server) Dump(w io.Writer, table string) (items int, err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if table == "" {
		if len(s.tables) != 1 {
			names := make([]string, 0, len(s.tables))
			for n := range s.tables {
				names = append(names, n)
			}
			return 0, fmt.Errorf("%d tables are served (%s); name the one to dump with --dump-table", len(s.tables), strings.Join(names, ", "))
		}
		for n := range s.tables {
			table = n
		}
	}
	t, ok := s.tables[table]
	if !ok {
		return 0, fmt.Errorf("no table %s is served", table)
	}
	bw := bufio.NewWriter(w)
	var buf []byte
	t.eng.Each(func(it model.Item) bool {
		buf = append(buf[:0], `{"Item":`...)
		buf = dynamojson.AppendItem(buf, it)
		buf = append(buf, "}\n"...)
		_, err = bw.Write(buf)
		items++
		return err == nil
	})
	if err != nil {
		return 0, err
	}
	return items, bw.Flush()
}
