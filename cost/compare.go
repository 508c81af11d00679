package cost

// Comparison sets two designs side by side, pattern by pattern, matched by id: the
// seeds' worked example reads this way (11 RCU against 2.5 RCU per page view, 4.4x).
type Comparison struct {
	A, B *Report
	Rows []CompareRow
	// Totals compares the designs as a whole. PerRequest sums every pattern's units
	// for one request each (a page view served by all of a design's patterns).
	PerRequestRead, PerSecondRead, PerSecondWrite, OnDemand, Provisioned, Storage Ratio
}

// CompareRow is one pattern id in either design or both.
type CompareRow struct {
	ID   int
	Name string
	A, B *PatternCost // nil when the design has no pattern of this id
	// Read, Write and OnDemand compare per-request read units, per-request write
	// units and on-demand dollars per month.
	Read, Write, OnDemand Ratio
}

// Ratio is A against B: A / B, "how many times B's cost A's is". Defined is false
// when B is zero (a ratio to nothing has no value) unless both are zero (1x).
type Ratio struct {
	A, B    float64
	X       float64
	Defined bool
}

// NewRatio compares a to b.
func NewRatio(a, b float64) Ratio {
	r := Ratio{A: a, B: b}
	switch {
	case b != 0:
		r.X, r.Defined = a/b, true
	case a == 0:
		r.X, r.Defined = 1, true
	}
	return r
}

// Compare sets report a beside report b. Rows follow a's pattern order, then b's
// patterns that a lacks.
func Compare(a, b *Report) *Comparison {
	c := &Comparison{A: a, B: b}
	inB := make(map[int]int, len(b.Patterns))
	for i, p := range b.Patterns {
		inB[p.ID] = i
	}
	seen := map[int]bool{}
	for i := range a.Patterns {
		pa := &a.Patterns[i]
		row := CompareRow{ID: pa.ID, Name: pa.Name, A: pa}
		if j, ok := inB[pa.ID]; ok {
			row.B = &b.Patterns[j]
		}
		seen[pa.ID] = true
		c.Rows = append(c.Rows, row.ratios())
	}
	for j := range b.Patterns {
		pb := &b.Patterns[j]
		if !seen[pb.ID] {
			c.Rows = append(c.Rows, CompareRow{ID: pb.ID, Name: pb.Name, B: pb}.ratios())
		}
	}
	c.PerRequestRead = NewRatio(a.Totals.PerRequestRead, b.Totals.PerRequestRead)
	c.PerSecondRead = NewRatio(a.Totals.PerSecond.Read, b.Totals.PerSecond.Read)
	c.PerSecondWrite = NewRatio(a.Totals.PerSecond.Write, b.Totals.PerSecond.Write)
	c.OnDemand = NewRatio(a.Totals.Monthly.OnDemand, b.Totals.Monthly.OnDemand)
	c.Provisioned = NewRatio(a.Totals.Monthly.Provisioned, b.Totals.Monthly.Provisioned)
	c.Storage = NewRatio(a.Storage.Monthly, b.Storage.Monthly)
	return c
}

func (r CompareRow) ratios() CompareRow {
	var a, b PatternCost
	if r.A != nil {
		a = *r.A
	}
	if r.B != nil {
		b = *r.B
	}
	r.Read = NewRatio(a.PerRequest.Read, b.PerRequest.Read)
	r.Write = NewRatio(a.PerRequest.Write, b.PerRequest.Write)
	r.OnDemand = NewRatio(a.Monthly.OnDemand, b.Monthly.OnDemand)
	return r
}
