"""``make package``: infra/out/template.json and infra/out/deployment.zip for a stage."""

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .resources import resources

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "infra" / "out"


def build(stage: str) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    merge = OUT / "resources.json"
    merge.write_text(json.dumps(resources(), ensure_ascii=False, indent=2), encoding="utf-8")
    packaged = OUT / "chalice"
    shutil.rmtree(packaged, ignore_errors=True)
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
        cwd=ROOT,
        env={"AWS_DEFAULT_REGION": "ap-northeast-1", **os.environ},
        check=True,
    )
    shutil.copy(packaged / "sam.json", OUT / "template.json")
    shutil.copy(packaged / "deployment.zip", OUT / "deployment.zip")
    return OUT / "template.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="SAM テンプレートとデプロイ用 zip を作る")
    parser.add_argument("--stage", default="dev", choices=("dev", "prod"))
    args = parser.parse_args(argv)
    print(build(args.stage))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
