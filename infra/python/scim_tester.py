"""Runs scim2-tester (infra/python/requirements.txt) against a Galley SCIM
base URL and prints one JSON line per check; infra/scim_test.go asserts
them. Usage: scim_tester.py BASE_URL TOKEN"""
import json
import sys

from httpx2 import Client
from scim2_client.engines.httpx2 import SyncSCIMClient
from scim2_tester import check_server

base, token = sys.argv[1], sys.argv[2]
client = SyncSCIMClient(Client(base_url=base, headers={"Authorization": "Bearer " + token}))
for r in check_server(client):
    print(json.dumps({
        "title": r.title or "",
        "status": r.status.name,
        "reason": r.reason or "",
        "resource": r.resource_type or "",
        "tags": sorted(r.tags),
    }))
