package designfile

import (
	"os"

	"stwb/model"
)

func readFile(path string) ([]byte, error) { return os.ReadFile(path) }

// fileOf is the File to save x as: x itself, or a design built in code.
func fileOf(x any) *File {
	switch v := x.(type) {
	case *File:
		return v
	case *model.Design:
		return &File{Design: v}
	}
	panic("fileOf: not a design")
}
