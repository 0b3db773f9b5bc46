// Times GET /v1/job/{id} from a process of its own, so that the benchmark's own work (building 60 MB bodies,
// counting) never stalls the clock that measures the service. Arguments: a JSON object { apis, key }. It refreshes
// the ids to look up from GET /v1/jobs every 2 s, issues a lookup every 25 ms through the API processes in turn, and
// on SIGTERM prints { ms: [...], errors, byStatus } as one JSON line and exits.
const { apis, key } = JSON.parse(process.argv[2]);
const headers = { authorization: `Bearer ${key}` };
const ms = [];
const byStatus = {};
let errors = 0;
let ids = [];
let stopping = false;

process.on('SIGTERM', () => {
  stopping = true;
});

async function refreshIds() {
  while (!stopping) {
    for (const api of apis) {
      try {
        const response = await fetch(`${api}/v1/jobs?limit=100`, { headers });
        if (response.ok) {
          const { jobs } = await response.json();
          if (jobs.length > 0) ids = jobs.map((job) => job.id);
          break;
        }
      } catch {
        // That API process is down; the next one answers.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

async function lookups() {
  for (let n = 0; !stopping; n++) {
    if (ids.length > 0) {
      const id = ids[Math.floor(Math.random() * ids.length)];
      const started = performance.now();
      try {
        const response = await fetch(`${apis[n % apis.length]}/v1/job/${id}`, { headers });
        await response.arrayBuffer();
        byStatus[response.status] = (byStatus[response.status] ?? 0) + 1;
        if (response.status === 200) ms.push(performance.now() - started);
      } catch {
        errors += 1;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

await Promise.all([refreshIds(), lookups()]);
process.stdout.write(`${JSON.stringify({ ms, errors, byStatus })}\n`);
