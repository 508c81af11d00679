// Package dynamojson reads and writes DynamoDB JSON, the wire form of attribute
// values (API_AttributeValue.html in the DynamoDB API reference): each value is an object with exactly one member naming
// its type, {"S": "x"}, {"N": "12.5"}, {"B": "<base64>"}, {"BOOL": true},
// {"NULL": true}, {"L": [...]}, {"M": {...}}, {"SS": [...]}, {"NS": [...]},
// {"BS": [...]}. Numbers travel as strings, so their exact digits survive.
//
// Output is canonical so that command-line output and exported files are stable:
// attribute and map names sorted by their bytes, binary in standard base64, no HTML
// escaping. Sets keep their element order, as DynamoDB does not define one. Numbers
// come in two spellings: AppendValue and AppendItem write DynamoDB's returned
// form (model.CanonicalNumber: "1e3" -> "1000"), for showing what a request
// returns; the *Exact variants keep the text the design wrote, for files that must
// read back as the same design (a key template spliced "4e10" into "ORDER#4e10").
//
// Every error names where the value sits as a JSON path (PathError), and the
// importers of other JSON formats (package interop) report theirs the same way.
package dynamojson
