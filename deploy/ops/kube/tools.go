//go:build tools

// Keeps the kube-apiserver command in this module's dependency graph (built with `go build k8s.io/kubernetes/cmd/kube-apiserver`).
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
