package throttle

import "slices"

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
