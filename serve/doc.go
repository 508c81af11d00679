// Package serve is a design as a DynamoDB endpoint: DynamoDB's JSON 1.0 HTTP
// protocol (POST /, X-Amz-Target: DynamoDB_20120810.Operation,
// application/x-amz-json-1.0) over the engine, so that an application's own tests,
// written with any AWS SDK, run against the design's table and items.
//
// DynamoDB Streams is answered on the same endpoint (X-Amz-Target:
// DynamoDBStreams_20120810.Operation; stream.go, streams_ops.go). Tables belong to
// the account and region a request is signed with, the design's to every one
// (namespace.go).
//
// State lives in memory. Every request is atomic: reads share a lock, writes and
// the control plane hold it alone, so transactions are serializable. Requests are
// not authenticated: any credentials and region are accepted, signatures are not
// checked (a local test endpoint, listening on loopback unless told otherwise).
//
// The wire shapes and error bodies are DynamoDB's (API reference, "Common errors";
// the JSON 1.0 protocol as the SDKs read it: {"__type": "...#Code", "message": ...});
// the messages are DynamoDB's, as the engine gives them and as dynalite (which copies
// DynamoDB's) gives the control plane's.
package serve
