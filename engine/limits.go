package engine

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"

	"stwb/model"
)

// The limits of requests over several tables, in one place so that the engine (one
// table) and stwb serve (the whole request) apply the same rule with the same words.

// CheckBatchWriteLength refuses a BatchWriteItem whose list for some table holds no
// write request or more than 25 (API_BatchWriteItem.html "RequestItems": "Minimum
// number of 1 item. Maximum number of 25 items"), and one of more than 25 requests
// over all its tables ("There are more than 25 requests in the batch").
func CheckBatchWriteLength(requests map[string][]WriteRequest) error {
	return asError(checkBatchWriteLength(requests))
}

func checkBatchWriteLength(requests map[string][]WriteRequest) *Error {
	total := 0
	for _, rs := range requests {
		if len(rs) == 0 || len(rs) > maxBatchWrite {
			return validation("1 validation error detected: Value '%s' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to %d, Member must have length greater than or equal to 1]", requestItemsText(requests), maxBatchWrite)
		}
		total += len(rs)
	}
	if total > maxBatchWrite {
		// Each table's list is within bounds but the request is not: DynamoDB's
		// own check, reported in these words (zio/zio-dynamodb#77), the same
		// words BatchGetItem uses for its 100.
		return validation("Too many items requested for the BatchWriteItem call")
	}
	return nil
}

// requestItemsText is RequestItems as DynamoDB prints it in that message: its Java
// map's toString, each write request as its class name and hash code, as real
// DynamoDB answered (boto/boto3#483: "Value '{my-dynamodb-table=[com.amazonaws.
// dynamodb.v20120810.WriteRequest@caad9cb8, com.amazonaws.dynamodb.v20120810.
// WriteRequest@61e6406e, ...]}'"; an empty list prints as "{test-table=[]}",
// elegantdevelopment/aws-cdk-dynamodb-seeder#3). Java's hash codes cannot be
// reproduced; each here is a 32-bit hash of the request's content, so the same
// request prints the same, as Java's content hash does. Tables are in name order
// (Java's map order is its own).
func requestItemsText(requests map[string][]WriteRequest) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, name := range slices.Sorted(maps.Keys(requests)) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name)
		b.WriteString("=[")
		for j, r := range requests[name] {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("com.amazonaws.dynamodb.v20120810.WriteRequest@")
			b.WriteString(strconv.FormatUint(uint64(hashOf(r)), 16))
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.String()
}

// CheckBatchGetLength refuses a BatchGetItem whose keys for some table (counts, by
// table name) are none or over 100, or over 100 in all (API_BatchGetItem.html: "up
// to 100 items"; "If you request more than 100 items, BatchGetItem returns a
// ValidationException with the message 'Too many items requested for the
// BatchGetItem call'"). Each table's own bound is checked first: DynamoDB words the
// two differently (getmoto/moto#3046).
func CheckBatchGetLength(counts map[string]int) error { return asError(checkBatchGetLength(counts)) }

// checkBatchGetLength's words follow the same policy as checkTransactionLength's:
// the empty list as most regions echo it (aws-sdk-js#1150, real DynamoDB: "Value
// '[]' at 'requestItems.Auth.member.keys'"), the long one in the new validation
// framework's words (the conformance suite's capture: "Value at
// 'RequestItems.<table>.member.Keys'").
func checkBatchGetLength(counts map[string]int) *Error {
	total := 0
	for _, name := range slices.Sorted(maps.Keys(counts)) {
		n := counts[name]
		if n == 0 {
			return validation("1 validation error detected: Value '[]' at 'requestItems.%s.member.keys' failed to satisfy constraint: Member must have length greater than or equal to 1", name)
		}
		if n > maxBatchGet {
			return validation("1 validation error detected: Value at 'RequestItems.%s.member.Keys' failed to satisfy constraint: Member must have length less than or equal to %d", name, maxBatchGet)
		}
		total += n
	}
	if total > maxBatchGet {
		return validation("Too many items requested for the BatchGetItem call")
	}
	return nil
}

// CheckTransactionLength refuses an empty transaction or one of over 100 actions
// (API_TransactWriteItems.html, API_TransactGetItems.html: 1 to 100 items), for a
// caller that must check it before it knows the tables (stwb serve), in the words
// DynamoDB answers a request: a list over 100 is echoed whole, as its Java
// toString, "Value '[com.amazonaws.dynamodb.v20120810.TransactWriteItem@...,
// ...]' at 'transactItems'" (us-east-1, the conformance suite's captures
// "TransactWriteItems — exact error messages" and "TransactGetItems — exact error
// messages", checked against DynamoDB), each action as its class (class:
// TransactWriteItem or TransactGetItem) and a hash code (hashOf stands in for
// Java's, as in requestItemsText).
func CheckTransactionLength[T any](items []T, class string) error {
	return asError(transactionLength(len(items), func() string {
		var b strings.Builder
		b.WriteByte('[')
		for i, it := range items {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("com.amazonaws.dynamodb.v20120810." + class + "@")
			b.WriteString(strconv.FormatUint(uint64(hashOf(it)), 16))
		}
		b.WriteByte(']')
		return b.String()
	}))
}

// checkTransactionLength is the same rule for a pattern's transaction, whose
// refusal is a finding: a list over 100 is named, not echoed, in the words
// DynamoDB's new validation framework uses ("Value at 'TransactItems'"), the same
// verdict short enough to read in a finding.
func checkTransactionLength(n int) *Error { return transactionLength(n, nil) }

// transactionLength is the one rule: 1 to 100 actions; an empty list is "Value
// '[]' at 'transactItems'" in every region's words; echo, when given, prints a
// list over 100 as DynamoDB echoes it.
func transactionLength(n int, echo func() string) *Error {
	if n == 0 {
		return validation("1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
	if n <= maxTransaction {
		return nil
	}
	if echo == nil {
		return validation("1 validation error detected: Value at 'TransactItems' failed to satisfy constraint: Member must have length less than or equal to %d", maxTransaction)
	}
	return validation("1 validation error detected: Value '%s' at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to %d", echo(), maxTransaction)
}

// hashOf is a 32-bit hash of a value's content, standing in for the Java hash code
// DynamoDB prints for a request member in a refusal: the hash of its JSON, so
// equal contents hash alike whatever pointers they hold (JSON writes maps in key
// order).
func hashOf(v any) uint32 {
	h := fnv.New32a()
	if b, err := json.Marshal(v); err == nil {
		h.Write(b)
	} else {
		fmt.Fprintf(h, "%v", v)
	}
	return h.Sum32()
}

// TransactWriteBytes is the size a TransactWriteItems request is held to 4 MB by:
// the aggregate size of its items (API_TransactWriteItems.html: "The aggregate size
// of the items in the transaction cannot exceed 4 MB"), summed over every table of
// the request: each Put's item, sized as DynamoDB sizes items (model.ItemSize).
func TransactWriteBytes(items []TransactWriteItem) int {
	total := 0
	for _, it := range items {
		if it.Kind == model.ActionPut {
			total += model.ItemSize(it.Item)
		}
	}
	return total
}

// CheckTransactionBytes refuses a transaction whose items total over 4 MB
// (TransactWriteBytes, summed over all its tables).
func CheckTransactionBytes(total int) error { return asError(checkTransactionBytes(total)) }

func checkTransactionBytes(total int) *Error {
	if total > maxTransactionBytes {
		// The wording is the one DynamoDB clients report for this refusal; no
		// real-DynamoDB transcript of it was found, so it is the weakest-sourced
		// message here.
		return validation("Transaction request cannot be larger than 4 MB")
	}
	return nil
}
