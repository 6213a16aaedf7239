// etcd for the chart check: the real etcd server (etcdmain), at the version kube-apiserver v1.37.2 depends on.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
