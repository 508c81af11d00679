package expr

import "stwb/model"

// multiKeyCondition checks a key condition against a multi-attribute key (a GSI
// whose partition key or sort key has several attributes) and compiles it. The
// rules (GSI.DesignPattern.MultiAttributeKeys.html, "Query" on such an index):
// every partition key attribute with =; sort key attributes from the left
// without a gap, each with = except the last one given, which may use any key
// condition operator; nothing on an attribute outside the key. The messages are
// real DynamoDB's where a capture exists (the conformance suite's
// "Query - GSI with a multi-attribute key", verified against AWS: the RANGE
// message for a gap and for a range before the last attribute given) and
// otherwise the single-attribute key's messages for the same fault, as moto's
// implementation (getmoto/moto#9710) and DynamoDB Local 3.3 answer them.
func multiKeyCondition(conds []keyCond, schema KeySchema) (*KeyCondition, error) {
	byName := make(map[string]*keyCond, len(conds))
	for i := range conds {
		byName[conds[i].name] = &conds[i]
	}
	typeMismatch := func(c *keyCond, want model.Type) error {
		for _, v := range c.vals {
			if want != 0 && v.Type != want {
				return Validation("One or more parameter values were invalid: Condition parameter type does not match schema type")
			}
		}
		return nil
	}
	kc := &KeyCondition{}
	for _, a := range schema.Partitions() {
		c := byName[a.Name]
		if c == nil {
			return nil, Validation("Query condition missed key schema element: %s", a.Name)
		}
		if c.op != SortEQ {
			return nil, Validation("Query key condition not supported")
		}
		if err := typeMismatch(c, a.Type); err != nil {
			return nil, err
		}
		kc.PartitionValues = append(kc.PartitionValues, c.vals[0])
	}
	kc.PartitionName, kc.PartitionValue = schema.Partition, kc.PartitionValues[0]
	sorts := schema.Sorts()
	inKey := len(schema.Partitions())
	for _, a := range sorts {
		if byName[a.Name] != nil {
			inKey++
		}
	}
	if inKey < len(conds) {
		// A condition on an attribute outside the key.
		for _, a := range sorts {
			if byName[a.Name] == nil {
				return nil, Validation("Query condition missed key schema element: %s", a.Name)
			}
		}
		return nil, Validation("Query key condition not supported")
	}
	// given[i] is the condition on sort attribute i, nil when there is none.
	given := make([]*keyCond, len(sorts))
	last := -1
	for i, a := range sorts {
		if given[i] = byName[a.Name]; given[i] != nil {
			last = i
		}
	}
	for i := 0; i < last; i++ {
		if given[i] == nil || given[i].op != SortEQ {
			next := i + 1
			for given[next] == nil {
				next++
			}
			return nil, Validation("RANGE key attributes %s must have equality conditions specified in the query because a condition is present on key attribute %s",
				sorts[i].Name, sorts[next].Name)
		}
	}
	for i := 0; i <= last; i++ {
		if err := typeMismatch(given[i], sorts[i].Type); err != nil {
			return nil, err
		}
	}
	if last < 0 {
		return kc, nil
	}
	for i := 0; i < last; i++ {
		kc.SortEquals = append(kc.SortEquals, given[i].vals[0])
	}
	c := given[last]
	kc.SortName, kc.SortOp, kc.SortValue = c.name, c.op, c.vals[0]
	if len(c.vals) > 1 {
		kc.SortValue2 = c.vals[1]
	}
	return kc, nil
}
