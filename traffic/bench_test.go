package traffic

import (
	"bytes"
	"strconv"
	"testing"

	"stwb/cost"
	"stwb/internal/cputime"
	"stwb/samples"
)

// BenchmarkAnalyzeRecording is check --traffic's replay of a recording read as a
// stream: a GetItem, a Query and a PutItem in turn, each with keys of their own.
// MB/s is the recording's bytes read per second of this process's CPU
// (cpu-MB/s; issue 24's target: a gigabyte a minute, 17 MB/s, or better).
//
//	go test ./traffic -run '^$' -bench AnalyzeRecording -benchtime 3x
func BenchmarkAnalyzeRecording(b *testing.B) {
	d, err := samples.Load("orders")
	if err != nil {
		b.Fatal(err)
	}
	var rec bytes.Buffer
	for i := range 60_000 {
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
	b.SetBytes(int64(rec.Len()))
	cpu0 := cputime.Process()
	for b.Loop() {
		if _, err := AnalyzeRecording(d.Design, bytes.NewReader(rec.Bytes()), cost.Builtin()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rec.Len())*float64(b.N)/(float64(cputime.Process()-cpu0)/1e9)/1e6, "cpu-MB/s")
}
