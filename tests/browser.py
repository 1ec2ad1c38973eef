"""Headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``:
JSON messages separated by NUL bytes on file descriptors 3 and 4), standard library only.

Used by the report's browser test and by hand (``python3 tests/browser.py PAGE.html OUT``
writes ``OUT-first-screen.png`` and ``OUT-full.png`` at 1400 px wide). The page itself holds
no script: measurements run through ``Runtime.evaluate``, which the protocol provides.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

INSTALL_HINT = "apt-get update && apt-get install -y --no-install-recommends chromium"


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    pass


class Chromium:
    """One headless browser with one page; ``events`` collects what the page reported."""

    def __init__(self, binary: str | None = None, width: int = 1400, height: int = 900,
                 timeout: float = 60.0):
        binary = binary or find_chromium()
        if binary is None:
            raise BrowserError(f"no chromium found (Debian: {INSTALL_HINT})")
        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="mjfast-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def _fds():   # the child reads commands on fd 3 and writes replies on fd 4
            r, w = os.dup(to_child_r), os.dup(from_child_w)   # neither is 3 or 4 now
            r, w = os.dup2(r, 100), os.dup2(w, 101)
            os.dup2(r, 3)
            os.dup2(w, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        cmd = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
               "--disable-extensions", "--disable-background-networking",
               "--host-resolver-rules=MAP * ~NOTFOUND",      # the page may reach nothing
               f"--user-data-dir={self._profile}", f"--window-size={width},{height}",
               "about:blank"]
        self.proc = subprocess.Popen(cmd, preexec_fn=_fds, pass_fds=(3, 4),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict] = []
        self.session = None
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")
        self.resize(width, height)

    # -- protocol --------------------------------------------------------------------------
    def _send(self, msg: dict) -> None:
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")

    def _read(self, deadline: float) -> dict:
        import select
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("chromium did not answer in time")
            ready, _, _ = select.select([self._from_child], [], [], left)
            if ready:
                chunk = os.read(self._from_child, 1 << 20)
                if not chunk:
                    err = self.proc.stderr.read().decode(errors="replace")[-2000:]
                    raise BrowserError(f"chromium closed the pipe: {err}")
                self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method: str, **params) -> dict:
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if self.session is not None and not method.startswith("Target."):
            msg["sessionId"] = self.session
        self._send(msg)
        deadline = time.monotonic() + self.timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self._id:
                if "error" in m:
                    raise BrowserError(f"{method}: {m['error']}")
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_for(self, method: str) -> dict:
        deadline = time.monotonic() + self.timeout
        for i, e in enumerate(self.events):
            if e["method"] == method:
                return self.events.pop(i)
        while True:
            m = self._read(deadline)
            if m.get("method") == method:
                return m
            if "method" in m:
                self.events.append(m)

    # -- what a test needs -----------------------------------------------------------------
    def resize(self, width: int, height: int) -> None:
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)

    def open(self, url: str) -> float:
        """Load ``url`` and wait for its load event and its fonts; returns seconds taken."""
        t0 = time.monotonic()
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")
        self.evaluate("document.fonts.ready.then(() => true)", await_promise=True)
        return time.monotonic() - t0

    def evaluate(self, expression: str, await_promise: bool = False):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                      awaitPromise=await_promise)
        if "exceptionDetails" in r:
            raise BrowserError(f"evaluate failed: {r['exceptionDetails']}")
        return r["result"].get("value")

    def screenshot(self, path: str | os.PathLike, full_page: bool = False) -> Path:
        params = {"format": "png"}
        if full_page:
            w, h = self.evaluate("[document.documentElement.clientWidth, "
                                 "document.documentElement.scrollHeight]")
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": w, "height": h, "scale": 1})
        data = self.call("Page.captureScreenshot", **params)["data"]
        path = Path(path)
        path.write_bytes(base64.b64decode(data))
        return path

    def problems(self) -> list[str]:
        """Console errors and warnings, uncaught exceptions and failed loads so far."""
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning",
                                                                               "assert"):
                out.append("console " + p["type"] + ": " + " ".join(
                    str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif e["method"] == "Runtime.exceptionThrown":
                out.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:300])
            elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") in (
                    "error", "warning"):
                en = p["entry"]
                out.append(f"log {en['level']} ({en.get('source')}): {en.get('text')} "
                           f"{en.get('url', '')}".strip())
        return out

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.proc.stderr:
            self.proc.stderr.close()
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def main(argv: list[str]) -> int:
    page, stem = Path(argv[0]).resolve(), argv[1]
    width = int(argv[2]) if len(argv) > 2 else 1400
    with Chromium(width=width, height=900) as b:
        secs = b.open(page.as_uri())
        first = b.screenshot(f"{stem}-first-screen.png")
        full = b.screenshot(f"{stem}-full.png", full_page=True)
        print(f"loaded in {secs:.2f} s; {first}; {full}")
        for p in b.problems():
            print("problem:", p)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
