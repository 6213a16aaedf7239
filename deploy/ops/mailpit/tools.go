//go:build tools

// Package tools pins Mailpit as a dependency of this wrapper module (see go.mod).
package tools

import _ "github.com/axllent/mailpit"
