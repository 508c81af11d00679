// Package live takes a design to a real DynamoDB endpoint (AWS, DynamoDB Local or
// dynalite) with aws-sdk-go-v2: it deploys the table, its indexes and its items,
// runs the design's read patterns there into a verify.Report (package verify
// compares the answers with the engine's prediction), tears the table down again,
// and explains a failed call in one line (Explain).
package live
