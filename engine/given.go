package engine

// Given marks the request parameters that were present even where their value is
// Go's zero value. A request built in code (a design's pattern) leaves it zero: there
// 0 and "" mean "absent", as they do in a design file. A request read off the wire
// (stwb serve) sets the bit of each parameter the JSON carried, because DynamoDB
// tells an absent parameter from a zero one and refuses the zero ones:
//
//   - Limit 0: "1 validation error detected: Value '0' at 'limit' failed to satisfy
//     constraint: Member must have value greater than or equal to 1"
//     (API_Query.html and API_Scan.html "Limit", minimum 1);
//   - Segment without TotalSegments, and the reverse (API_Scan.html "Segment"). In
//     a request built in code, TotalSegments alone means Segment 0, the first;
//   - an expression given as "": "Invalid FilterExpression: The expression can not
//     be empty;" (expr's compilers give the message; they are called whenever the
//     expression is given).
//
// A non-zero value is present whatever Given says.
type Given uint16

// The parameters Given can mark.
const (
	GivenLimit Given = 1 << iota
	GivenSegment
	GivenTotalSegments
	GivenKeyCondition
	GivenFilter
	GivenProjection
	GivenCondition
	GivenUpdate
)

// has reports whether the parameter is present: marked, or non-zero.
func (g Given) has(p Given, nonZero bool) bool { return nonZero || g&p != 0 }
