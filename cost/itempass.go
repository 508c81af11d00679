package cost

import (
	"stwb/internal/chunks"
	"stwb/model"
)

// readItems is Compute's pass over the items when it tallies their storage itself
// (Input.Storage nil). While each item is at hand it also reads what the key space
// would otherwise read of it later, in a pass of its own each: its entity (each
// entity's samples), the value of each variable of its entity's key templates
// (sampleValues) and, with index, the hash of its table key (EntityOf's
// sampleIndex). A million item maps are far beyond the cache: read once rather
// than four times, each time brought back from memory, Compute took a quarter
// less CPU (BenchmarkCompute1M, 0.87 to 0.66 s). The key
// space's figures are those it reads itself: the same reader for each value
// (sampleValue), the same items grouped in the same order (NewKeySpaceOf), the
// same index. Without keys it tallies the storage alone (ComputeStorage).
func readItems(d *model.Design, items model.ItemList, sizes []int, count func(*model.Entity) int64, keys, index bool) (*StorageTally, *KeySpace) {
	n := items.Len()
	t := NewStorageTally(d, n)
	ks := &KeySpace{d: d, count: count, samples: map[string][]int{}, vars: map[[2]string]VarInfo{},
		items: items, values: map[[2]string][]string{}}
	// The readers of each entity's template variables, by the entity's index in
	// the design as the tally finds it (entityOf: the last of a name); the values
	// are those of the entity the key space names (EntityByName: the first).
	readers := make([][]varReader, len(d.Entities))
	maxVars := 0
	for x := range d.Entities {
		if !keys {
			break
		}
		e := d.EntityByName(d.Entities[x].Name)
		readers[x] = varReaders(items, e, templateVars(e))
		maxVars = max(maxVars, len(readers[x]))
	}
	// Item i's value of its entity's k-th variable, while the items are read.
	found := make([][]string, maxVars)
	has := make([][]bool, maxVars)
	for k := range maxVars {
		found[k], has[k] = make([]string, n), make([]bool, n)
	}
	var hash func(tableKey) uint32
	var hashes []uint32
	x := emptySampleIndex(ks)
	if index {
		hash, hashes = newKeyHash(), make([]uint32, n)
	}
	// Each call writes only its own items' slots.
	chunks.Run(n, chunkedFrom, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			it := items.Item(i)
			size := 0
			if sizes != nil {
				size = sizes[i]
			} else {
				size = model.ItemSize(it)
			}
			e := entityOf(d, t.byName, it)
			t.tally(i, e, it, size, nil)
			if e < 0 {
				continue
			}
			for k := range readers[e] {
				found[k][i], has[k][i] = ks.sampleValue(i, &readers[e][k])
			}
			if index {
				hashes[i] = hash(x.keyAt(int32(i)))
			}
		}
	})
	if !keys {
		return t, nil
	}
	// Each entity's samples, in item order, counted first to be made at size.
	counts := make([]int, len(d.Entities))
	for _, e := range t.entity {
		if e >= 0 {
			counts[e]++
		}
	}
	samples := make([][]int, len(d.Entities))
	for e, c := range counts {
		samples[e] = make([]int, 0, c)
	}
	for i, e := range t.entity {
		if e >= 0 {
			samples[e] = append(samples[e], i)
		}
	}
	for e, at := range samples {
		if len(at) == 0 {
			continue
		}
		name := d.Entities[e].Name
		ks.samples[name] = at
		for k, r := range readers[e] {
			vals := make([]string, 0, len(at))
			for _, i := range at {
				if has[k][i] {
					vals = append(vals, found[k][i])
				}
			}
			ks.values[[2]string{name, r.name}] = vals
		}
		if index {
			for _, i := range at {
				x.entries = append(x.entries, indexEntry{hash: hashes[i], at: int32(i)})
			}
		}
	}
	if index {
		x.hash = hash
		radixSort(x.entries)
		ks.byKey = x
	}
	return t, ks
}
