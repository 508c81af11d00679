package serve

import (
	"testing"

	"stwb/internal/cputime"
)

// BenchmarkStatement is what PartiQL adds to a request, measured side by side in
// one run: the 25-item Query of benchDesign as a Query and as the SELECT that
// stands for it, and one item by key as GetItem and as a SELECT (which DynamoDB
// runs as a Query). cpu-ns/op is the process's CPU per call, as in BenchmarkCall.
func BenchmarkStatement(b *testing.B) {
	s := New(Options{})
	if err := s.AddDesign(benchDesign()); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, op, body string }{
		{"Query", "Query", `{"TableName":"bench-table","KeyConditionExpression":"PK = :p","ExpressionAttributeValues":{":p":{"S":"ORDERS#1"}}}`},
		{"SelectPartition", "ExecuteStatement", `{"Statement":"SELECT * FROM \"bench-table\" WHERE PK = ?","Parameters":[{"S":"ORDERS#1"}]}`},
		{"GetItem", "GetItem", `{"TableName":"bench-table","Key":{"PK":{"S":"USER#7"},"SK":{"S":"PROFILE"}}}`},
		{"SelectItem", "ExecuteStatement", `{"Statement":"SELECT * FROM \"bench-table\" WHERE PK = 'USER#7' AND SK = 'PROFILE'"}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			body := []byte(c.body)
			b.ReportAllocs()
			cpu0 := cputime.Process()
			for b.Loop() {
				if status, out := s.Call(c.op, body); status != 200 {
					b.Fatalf("%d %s", status, out)
				}
			}
			b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
