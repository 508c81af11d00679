package throttle

import (
	"slices"
	"strings"
)

// DynamoDB's throttling reasons (API_ThrottlingReason.html; the throttling
// resolution guide, troubleshooting-throttling-diagnostics.html, lists the
// sixteen): ResourceType + OperationType + LimitType, each with the ARN of the table
// or index throttled (arn:aws:dynamodb:REGION:ACCOUNT:table/NAME, and
// .../index/NAME for a GSI; throttling-diagnosing-workflow.html).

// The limit types: why a request was throttled.
const (
	// KeyRange: one partition key value (or, split for heat, one item) passed a
	// partition's 3,000 RCU or 1,000 WCU a second (bp-partition-key-design.html),
	// in either capacity mode.
	KeyRange = "KeyRangeThroughputExceeded"
	// Provisioned: a provisioned table or GSI passed its provisioned capacity and
	// its burst capacity (provisioned-capacity-mode.html, burst-adaptive-capacity.html).
	Provisioned = "ProvisionedThroughputExceeded"
	// AccountLimit: an on-demand table or GSI passed the per-table account quota
	// (ServiceQuotas.html, "Throughput default quotas": 40,000 read and 40,000
	// write request units a second per table).
	AccountLimit = "AccountLimitExceeded"
	// MaxOnDemand: an on-demand table or GSI passed the maximum throughput the
	// design sets (on-demand-capacity-mode-max-throughput.html).
	MaxOnDemand = "MaxOnDemandThroughputExceeded"
)

// LimitTypes are the four limit types in the order the resolution guide gives them.
var LimitTypes = []string{KeyRange, Provisioned, AccountLimit, MaxOnDemand}

// Reason is one ThrottlingReason: the reason and the ARN of the resource throttled.
type Reason struct {
	Reason   string `json:"reason"`
	Resource string `json:"resource"`
}

// ReasonName is the reason DynamoDB gives for a limit type on the table (index
// false) or a GSI, for reads or writes: TableWriteKeyRangeThroughputExceeded,
// IndexReadProvisionedThroughputExceeded, ...
func ReasonName(index, write bool, limit string) string {
	r := "Table"
	if index {
		r = "Index"
	}
	if write {
		r += "Write"
	} else {
		r += "Read"
	}
	return r + limit
}

// AllReasons lists the sixteen reasons (the resolution guide's list).
func AllReasons() []string {
	var out []string
	for _, limit := range LimitTypes {
		for _, index := range []bool{false, true} {
			for _, write := range []bool{false, true} {
				out = append(out, ReasonName(index, write, limit))
			}
		}
	}
	return out
}

// The exceptions a throttled request gets, with DynamoDB's messages. A provisioned
// table's throttles are ProvisionedThroughputExceededException ("The level of
// configured provisioned throughput for the table was exceeded", the message
// DynamoDB sends); an on-demand table's key-range throttles are ThrottlingException
// with the message DynamoDB sends for a hot key on an on-demand table; the account
// quota is RequestLimitExceeded (API_RequestLimitExceeded.html, "Throughput exceeds
// the current throughput quota for your account"); the on-demand maximum is
// ThrottlingException (throttling-ondemand-capacity-exceeded-mitigation.html: "quick
// throttle responses"; its message is stwb's words, no AWS page quotes one). All
// carry ThrottlingReasons, and the SDKs retry all of them (aws-sdk-go-v2
// retry.DefaultThrottleErrorCodes).
const (
	ProvisionedThroughputExceededException = "ProvisionedThroughputExceededException"
	ThrottlingException                    = "ThrottlingException"
	RequestLimitExceeded                   = "RequestLimitExceeded"

	msgProvisioned = "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."
	msgOnDemandKey = "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html"
	msgAccount     = "Throughput exceeds the current throughput limit for your account. Please contact AWS Support at https://aws.amazon.com/support request a limit increase"
	msgMaxOnDemand = "Throughput exceeds the maximum OnDemandThroughput configured on the table or index."
)

// Refusal is a throttled request's answer: the exception, its message and the
// reasons, every limit the request passed.
type Refusal struct {
	Code    string
	Message string
	Reasons []Reason
}

// refusal picks the exception for a set of reasons on a table of billing mode
// provisioned (true) or on-demand.
func refusal(provisioned bool, reasons []Reason, limits []string) *Refusal {
	r := &Refusal{Reasons: reasons}
	switch {
	case provisioned:
		r.Code, r.Message = ProvisionedThroughputExceededException, msgProvisioned
	case slices.Contains(limits, MaxOnDemand):
		r.Code, r.Message = ThrottlingException, msgMaxOnDemand
	case slices.Contains(limits, AccountLimit):
		r.Code, r.Message = RequestLimitExceeded, msgAccount
	default:
		r.Code, r.Message = ThrottlingException, msgOnDemandKey
	}
	return r
}

// The words of a throttled part of a request: a transaction's action
// (CancellationReason) or a BatchExecuteStatement's statement
// (BatchStatementError). The codes and messages are the API reference's list for
// TransactionCanceledException (API_TransactWriteItems.html, "Errors"): on a
// provisioned table or GSI ProvisionedThroughputExceeded, on an on-demand one
// ThrottlingError, each in the table's or the GSIs' words.
const (
	CodeProvisioned  = "ProvisionedThroughputExceeded"
	CodeThrottling   = "ThrottlingError"
	CodeRequestLimit = "RequestLimitExceeded"

	msgProvisionedIndex = "The level of configured provisioned throughput for one or more global secondary indexes of the table was exceeded. Consider increasing your provisioning level for the under-provisioned global secondary indexes with the UpdateTable API."
	msgOnDemandIndex    = "Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB is automatically scaling your index so please try again shortly."
)

// onIndexes reports whether every reason is a GSI's.
func (r *Refusal) onIndexes() bool {
	for _, x := range r.Reasons {
		if !strings.HasPrefix(x.Reason, "Index") {
			return false
		}
	}
	return len(r.Reasons) > 0
}

// Cancellation is the CancellationReason's code and message of a transaction's
// action the refusal throttled: ProvisionedThroughputExceeded on a provisioned
// table, ThrottlingError on an on-demand one (its account quota and maximum too:
// the list has no code or message of their own, so they get ThrottlingError's).
func (r *Refusal) Cancellation() (code, message string) {
	if r.Code == ProvisionedThroughputExceededException {
		if r.onIndexes() {
			return CodeProvisioned, msgProvisionedIndex
		}
		return CodeProvisioned, msgProvisioned
	}
	if r.onIndexes() {
		return CodeThrottling, msgOnDemandIndex
	}
	return CodeThrottling, msgOnDemandKey
}

// StatementError is the BatchStatementError's code and message of a statement
// the refusal throttled (API_BatchStatementError.html lists
// ProvisionedThroughputExceeded, ThrottlingError and RequestLimitExceeded): a
// transaction action's words, the account quota as RequestLimitExceeded.
func (r *Refusal) StatementError() (code, message string) {
	if r.Code == RequestLimitExceeded {
		return CodeRequestLimit, r.Message
	}
	return r.Cancellation()
}

// BatchRefusal is the exception of a BatchGetItem or BatchWriteItem none of whose
// items could be processed, each refused as rs: "For tables and indexes with
// provisioned capacity, if none of the items can be processed due to insufficient
// provisioned throughput on all of the tables in the request, then BatchWriteItem
// returns a ProvisionedThroughputExceededException. For all tables and indexes,
// if none of the items can be processed due to other throttling scenarios (such
// as exceeding partition level limits), then BatchWriteItem returns a
// ThrottlingException." (API_BatchWriteItem.html; API_BatchGetItem.html says the
// same of ProvisionedThroughputExceededException). The reasons are every item's.
func BatchRefusal(rs []*Refusal) *Refusal {
	out := &Refusal{Code: ProvisionedThroughputExceededException, Message: msgProvisioned}
	for _, r := range rs {
		for _, x := range r.Reasons {
			if !slices.Contains(out.Reasons, x) {
				out.Reasons = append(out.Reasons, x)
			}
			if !strings.HasSuffix(x.Reason, Provisioned) {
				out.Code, out.Message = ThrottlingException, msgOnDemandKey
			}
		}
	}
	for _, r := range rs {
		if out.Code == ThrottlingException && r.Message == msgMaxOnDemand {
			out.Message = msgMaxOnDemand
		}
	}
	return out
}
