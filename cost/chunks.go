package cost

// chunkedFrom is how many items make one of cost's passes over the items worth
// splitting across goroutines (internal/chunks): a million sample items are read
// in a third of a second on one core (BenchmarkCompute1M), a few thousand in well
// under the cost of starting one.
const chunkedFrom = 1 << 14
