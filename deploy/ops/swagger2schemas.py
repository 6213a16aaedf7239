#!/usr/bin/env python3
"""Turn Kubernetes' api/openapi-spec/swagger.json into kubeconform-style per-kind JSON schemas, strict.

The k8s.io/kubernetes Go module ships the OpenAPI document, so the schemas are generated offline (kubeconform's
default schema location is on GitHub, unreachable here). Strict means: every object schema gets
additionalProperties: false (an unknown or misspelt field is an error), int-or-string becomes oneOf, and
apiVersion/kind are pinned to the kind the file is named after. Files are named the way kubeconform's
{{ .ResourceKind }}{{ .KindSuffix }} template expects (deployment-apps-v1.json, service-v1.json).
Usage: swagger2schemas.py swagger.json out-dir   (stdlib only)
"""
import json
import os
import re
import sys

spec = json.load(open(sys.argv[1]))
out = sys.argv[2]
os.makedirs(out, exist_ok=True)
defs = spec["definitions"]


def fix(node):
    if isinstance(node, dict):
        if node.get("format") == "int-or-string":
            return {"oneOf": [{"type": "string"}, {"type": "integer"}]}
        n = {k: fix(v) for k, v in node.items()}
        if "properties" in n and "additionalProperties" not in n:
            n["additionalProperties"] = False
        return n
    if isinstance(node, list):
        return [fix(x) for x in node]
    return node


def reach(name, seen):
    """Every definition a schema refers to, transitively, so each file stands alone."""
    if name in seen:
        return
    seen.add(name)
    for ref in re.findall(r'"\$ref": "#/definitions/([^"]+)"', json.dumps(defs[name])):
        reach(ref, seen)


count = 0
for name, d in defs.items():
    for gvk in d.get("x-kubernetes-group-version-kind", []):
        g, v, k = gvk["group"], gvk["version"], gvk["kind"]
        fname = (f"{k}-{v}" if g == "" else f"{k}-{g.split('.')[0]}-{v}").lower() + ".json"
        seen = set()
        reach(name, seen)
        schema = fix(dict(defs[name]))
        schema["$schema"] = "http://json-schema.org/draft-04/schema#"
        schema["definitions"] = {s: fix(defs[s]) for s in seen}
        api_version = v if g == "" else f"{g}/{v}"
        schema.setdefault("properties", {})["apiVersion"] = {"type": "string", "enum": [api_version]}
        schema["properties"]["kind"] = {"type": "string", "enum": [k]}
        with open(os.path.join(out, fname), "w") as f:
            json.dump(schema, f)
        count += 1
print(f"swagger2schemas: wrote {count} schemas to {out}")
