package traffic

import (
	"bytes"
	"strconv"
	"testing"

	"stwb/cost"
	"stwb/internal/cputime"
	"stwb/model"
	"stwb/samples"
	"stwb/serve"
)

// BenchmarkAnalyzeRecording is check --traffic's replay of a recording read as a
// stream (AnalyzeRecording), on two recordings of the orders sample: "simple", a
// GetItem, a Query and a PutItem in turn, each with keys of their own; "mixed",
// TestReplayFiguresHold's 30,000 requests of every kind. "serial" is the simple
// one replayed a request at a time on one goroutine (Analyzer.Add), as the replay
// ran before it was pipelined, for the figure side by side. MB/s is the
// recording's bytes per second of wall time, cpu-MB/s per second of this process's
// CPU (issue 24's target: a gigabyte a minute, 17 MB/s, or better).
//
//	go test ./traffic -run '^$' -bench AnalyzeRecording -benchtime 3x
func BenchmarkAnalyzeRecording(b *testing.B) {
	f, err := samples.Load("orders")
	if err != nil {
		b.Fatal(err)
	}
	d := f.Design
	simple := simpleRecording(d, 60_000)
	b.Run("simple", func(b *testing.B) { benchReplay(b, d, simple, false) })
	b.Run("serial", func(b *testing.B) { benchReplay(b, d, simple, true) })
	b.Run("mixed", func(b *testing.B) { benchReplay(b, d, mixedRecording(b, d, 30_000), false) })
}

func benchReplay(b *testing.B, d *model.Design, rec []byte, serial bool) {
	b.SetBytes(int64(len(rec)))
	cpu0 := cputime.Process()
	for b.Loop() {
		if serial {
			a, err := NewAnalyzer(d)
			if err != nil {
				b.Fatal(err)
			}
			if err := serve.EachRecord(bytes.NewReader(rec), func(r serve.Record) error { a.Add(r); return nil }); err != nil {
				b.Fatal(err)
			}
			continue
		}
		if _, err := AnalyzeRecording(d, bytes.NewReader(rec), cost.Builtin()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rec))*float64(b.N)/(float64(cputime.Process()-cpu0)/1e9)/1e6, "cpu-MB/s")
}

// simpleRecording is n requests: a GetItem, a Query and a PutItem in turn.
func simpleRecording(d *model.Design, n int) []byte {
	var rec bytes.Buffer
	for i := range n {
		n := strconv.Itoa(i)
		switch i % 3 {
		case 0:
			rec.WriteString(`{"at":"2026-12-01T10:00:00Z","op":"GetItem","request":{"TableName":"` + d.Table.Name + `","Key":{"PK":{"S":"CUST#` + n + `"},"SK":{"S":"PROFILE"}}}}` + "\n")
		case 1:
			rec.WriteString(`{"at":"2026-12-01T10:00:01Z","op":"Query","request":{"TableName":"` + d.Table.Name + `","KeyConditionExpression":"PK = :p AND begins_with(SK, :s)","ExpressionAttributeValues":{":p":{"S":"CUST#` + n + `"},":s":{"S":"ORDER#"}}}}` + "\n")
		case 2:
			rec.WriteString(`{"at":"2026-12-01T10:00:02Z","op":"PutItem","request":{"TableName":"` + d.Table.Name + `","Item":{"PK":{"S":"CUST#` + n + `"},"SK":{"S":"ORDER#2026-12-01#` + n + `"},"type":{"S":"order"},"total":{"N":"42.50"},"status":{"S":"PLACED"}}}}` + "\n")
		}
	}
	return rec.Bytes()
}
