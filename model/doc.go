// Package model holds a design and its values: the DynamoDB attribute value types,
// exact numbers, item sizes, the design's types, validation and key templates. It
// imports nothing else of stwb; reading and writing design files is package
// designfile's, DynamoDB's wire JSON package dynamojson's.
package model
