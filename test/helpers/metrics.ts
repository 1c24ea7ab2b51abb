// Reads /metrics the way Prometheus does: the exposition text's samples, by name and labels.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The exposition format's sample lines (no label value here holds a comma or an escaped quote). */
function parseExposition(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not an exposition line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map(([, name, value]) => [name!, value!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  return found.length === 0 ? undefined : found.reduce((sum, sample) => sum + sample.value, 0);
}

export async function scrape(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; contentType: string | null; samples: Sample[]; text: string }> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get("content-type"), samples: response.status === 200 ? parseExposition(text) : [], text };
}
