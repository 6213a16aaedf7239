// compose-check FILE: loads FILE the way `docker compose config` does (compose-go: the Compose specification's
// JSON schema, interpolation, consistency checks such as depends_on naming a service that does not exist) and
// prints the normalized project as JSON on stdout, for the test that checks names against the code.
// Exit 1 with the loader's message when the file is not valid.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: compose-check docker-compose.yml")
		os.Exit(2)
	}
	// No OS environment and no .env: the file must be valid with its own defaults.
	opts, err := cli.NewProjectOptions([]string{os.Args[1]}, cli.WithName("ephemera"), cli.WithEnv(nil), cli.WithConsistency(true))
	if err == nil {
		var project any
		if project, err = opts.LoadProject(context.Background()); err == nil {
			out, _ := json.MarshalIndent(project, "", "  ")
			fmt.Println(string(out))
			return
		}
	}
	fmt.Fprintln(os.Stderr, "compose-check:", err)
	os.Exit(1)
}
