"""``make package``: infra/out/template.json and infra/out/deployment.zip for a stage.

Chalice builds the template and the zip; the zip is then finished here:

- **Compiled.** Every module gets its ``__pycache__/*.cpython-3XX.pyc``, compiled by this
  interpreter, whose version is the Lambda runtime Chalice writes into the template (Chalice
  picks the runtime from the Python that packages; :func:`check_runtime` refuses a mismatch).
  Lambda's ``/var/task`` is read-only, so without them every cold start compiles every module
  again. The ``.pyc`` are *unchecked* hash-based (PEP 552): the zip does not keep exact
  modification times, and the source never changes under a deployed function, so Python
  loads them without reading the source.
- **Without the AWS SDK.** The Lambda Python runtime ships boto3, botocore and their
  dependencies, compiled, on its own path; the zip's copies (18 MB of 27 MB unpacked) would
  only shadow them. The app uses long-standing SQS, SES, SSM and DynamoDB calls that every
  runtime's boto3 has (docs/decisions.md).
"""

import argparse
import compileall
import json
import os
import py_compile
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from .front import FRONTS, use_http_api
from .parameters import use_parameters
from .resources import resources

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "infra" / "out"

# boto3 and its dependency closure, as the Lambda Python runtime provides them.
AWS_SDK = ("boto3", "botocore", "s3transfer", "jmespath", "dateutil", "urllib3", "six")
AWS_SDK_DISTRIBUTIONS = (*AWS_SDK, "python_dateutil")


def build(stage: str, front: str = "http", out: Path = OUT) -> Path:
    """Writes ``out``/template.json and ``out``/deployment.zip; ``front``: the API in front."""
    out.mkdir(parents=True, exist_ok=True)
    merge = out / "resources.json"
    merged = resources(front, stage)
    merge.write_text(json.dumps(merged, ensure_ascii=False, indent=2), encoding="utf-8")
    packaged = out / "chalice"
    shutil.rmtree(packaged, ignore_errors=True)
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(
            [
                str(Path(sys.executable).parent / "chalice"),
                "package",
                "--stage",
                stage,
                "--merge-template",
                str(merge),
                str(packaged),
            ],
            cwd=staged(Path(work)),
            env={"AWS_DEFAULT_REGION": "ap-northeast-1", **os.environ},
            check=True,
        )
    template = json.loads((packaged / "sam.json").read_text(encoding="utf-8"))
    check_runtime(template)
    template = use_parameters(substituted_policies(template))
    if front == "http":
        template = use_http_api(template)
    (out / "template.json").write_text(json.dumps(template, indent=2), encoding="utf-8")
    finish_zip(packaged / "deployment.zip", out / "deployment.zip")
    return out / "template.json"


def staged(work: Path) -> Path:
    """A copy of what Chalice packages, without bytecode and with a build cache of its own.

    Chalice hashes and zips the project's ``chalicelib`` as it finds it, ``__pycache__``
    included, and caches the result in ``.chalice/deployments``: in the project, a build ran
    while other processes wrote bytecode there (the test workers) and shared that cache with
    any other build (``make package``), and one CI run read its zip as "not a zip file".
    """
    project = work / "project"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "deployments")
    for name in ("chalicelib", "vendor", ".chalice"):
        # vendor/templates is a link to templates/: the copy holds the files themselves.
        shutil.copytree(ROOT / name, project / name, ignore=skip)
    for name in ("app.py", "requirements.txt"):
        shutil.copy2(ROOT / name, project / name)
    return project


def substituted_policies(template: dict) -> dict:
    """The functions' policies (.chalice/policies/) name their resources with CloudFormation's
    substitutions (``${AWS::Region}``, ``${AWS::AccountId}``, ``${MailDomain}``), so that each
    role is scoped to this stack's region, account and sending identity: here they become
    ``Fn::Sub``. (Chalice copies a policy file into its role as it is.)"""

    def sub(value: Any) -> Any:
        if isinstance(value, str) and "${" in value:
            return {"Fn::Sub": value}
        if isinstance(value, list):
            return [sub(v) for v in value]
        if isinstance(value, dict):
            return {k: sub(v) for k, v in value.items()}
        return value

    for resource in template["Resources"].values():
        if resource["Type"] == "AWS::IAM::Role":
            resource["Properties"]["Policies"] = sub(resource["Properties"]["Policies"])
    return template


def check_runtime(template: dict) -> None:
    """Every function runs the Python whose bytecode we ship (else the .pyc are ignored)."""
    ours = f"python{sys.version_info.major}.{sys.version_info.minor}"
    runtimes = {
        resource["Properties"]["Runtime"]
        for resource in template["Resources"].values()
        if resource["Type"] == "AWS::Serverless::Function"
    }
    if runtimes != {ours}:
        raise SystemExit(f"the functions run {sorted(runtimes)}, but this is {ours}")


def is_aws_sdk(name: str) -> bool:
    top = name.split("/", 1)[0]
    if top.removesuffix(".py") in AWS_SDK:
        return True
    distribution = top.split("-", 1)[0]
    return top.endswith((".dist-info", ".data")) and distribution in AWS_SDK_DISTRIBUTIONS


def finish_zip(source: Path, target: Path) -> None:
    """Copies Chalice's zip without the AWS SDK and with every module compiled."""
    with tempfile.TemporaryDirectory() as work:
        unpacked = Path(work)
        modes = {}
        with zipfile.ZipFile(source) as chalice_zip:
            for info in chalice_zip.infolist():
                if is_aws_sdk(info.filename):
                    continue
                chalice_zip.extract(info, unpacked)
                modes[info.filename] = info.external_attr
        compiled = compileall.compile_dir(
            unpacked,
            ddir="/var/task",  # the path tracebacks show in Lambda
            quiet=1,
            optimize=0,  # Lambda runs python without -O: it looks for the plain .pyc
            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
        )
        if not compiled:
            raise SystemExit("some modules of the package do not compile")
        target.unlink(missing_ok=True)
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
            for path in sorted(p for p in unpacked.rglob("*") if p.is_file()):
                name = path.relative_to(unpacked).as_posix()
                info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
                info.external_attr = modes.get(name, 0o644 << 16)
                info.compress_type = zipfile.ZIP_DEFLATED
                out.writestr(info, path.read_bytes())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="SAM テンプレートとデプロイ用 zip を作る")
    parser.add_argument("--stage", default="dev", choices=("dev", "prod"))
    parser.add_argument(
        "--front", default="http", choices=FRONTS, help="HTTP API (default) or REST API"
    )
    args = parser.parse_args(argv)
    print(build(args.stage, args.front))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
