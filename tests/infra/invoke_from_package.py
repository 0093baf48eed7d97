"""A Lambda function's handler run as the Lambda Python runtime runs it, in ``python -S``:
only the standard library, the package and the runtime's AWS SDK on the path.

argv: the unpacked package, the SDK's folder. stdin: {"handler": "app.tick", "events": [...]}.
The handler's results are printed last, on a line of their own after ``RESULTS``.
"""

import importlib
import json
import sys

package, sdk = sys.argv[1], sys.argv[2]
sys.path[:0] = [package, sdk]
request = json.load(sys.stdin)
module, _, name = request["handler"].rpartition(".")
handler = getattr(importlib.import_module(module), name)


class Context:
    """What the handlers read of Lambda's context object."""

    def __init__(self, number: int) -> None:
        self.aws_request_id = f"request-{number}"
        self.function_name = request["handler"]

    def get_remaining_time_in_millis(self) -> int:
        return 60_000


results = [handler(event, Context(n)) for n, event in enumerate(request["events"])]
sys.stdout.flush()
print("RESULTS")
print(json.dumps(results, ensure_ascii=False, default=str))
