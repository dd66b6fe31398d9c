// Discord's message markdown as DOM nodes. Text only ever becomes text nodes (never HTML), so
// nothing a message or a name holds can inject markup into the page.
"use strict";

const Markdown = (() => {
  // Times in the page's language (its <html lang>, the member's), else the browser's.
  const lang = () => document.documentElement.lang || undefined;
  // Formatters, one per language and style: each is dear to set up, and the relative times
  // are written again every 10 seconds.
  const formatters = new Map();
  function formatter(kind, code, options) {
    const key = [kind, code, JSON.stringify(options)].join(" ");
    if (!formatters.has(key)) formatters.set(key, new Intl[kind](code, options));
    return formatters.get(key);
  }
  const relativeIn = (code) => formatter("RelativeTimeFormat", code, { numeric: "auto" });
  // What Date's toLocaleString writes without options: the date and the time.
  const WHOLE = { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" };
  const STEPS = [["second", 60], ["minute", 60], ["hour", 24], ["day", 30], ["month", 12], ["year", Infinity]];

  function el(tag, className, children) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    for (const child of children || []) node.append(child);
    return node;
  }

  // "in 5 minutes", "2 hours ago": Discord's <t:...:R>.
  function relative(seconds) {
    const RELATIVE = relativeIn(lang());
    let amount = seconds - Date.now() / 1000;
    for (const [unit, size] of STEPS) {
      if (Math.abs(amount) < size) return RELATIVE.format(Math.round(amount), unit);
      amount /= size;
    }
    return RELATIVE.format(Math.round(amount), "year");
  }

  const STYLES = {
    t: { timeStyle: "short" }, T: { timeStyle: "medium" }, d: { dateStyle: "short" },
    D: { dateStyle: "long" }, f: { dateStyle: "long", timeStyle: "short" },
    F: { dateStyle: "full", timeStyle: "short" },
  };

  function timestamp(seconds, style) {
    const node = el("time", "timestamp");
    node.dateTime = new Date(seconds * 1000).toISOString();
    node.title = formatter("DateTimeFormat", lang(), WHOLE).format(new Date(seconds * 1000));
    if (style === "R") {
      node.dataset.relative = String(seconds);
      node.textContent = relative(seconds);
    } else {
      node.textContent = formatter("DateTimeFormat", lang(), STYLES[style || "f"] || STYLES.f).format(new Date(seconds * 1000));
    }
    return node;
  }

  function refresh(root) {
    for (const node of root.querySelectorAll("time[data-relative]")) {
      node.textContent = relative(Number(node.dataset.relative));
    }
  }

  function safeUrl(text) {
    try {
      const url = new URL(text);
      return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
    } catch {
      return null;
    }
  }

  function link(text, href) {
    const a = el("a", null, [text]);
    a.href = href;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    return a;
  }

  // Inline rules, tried in order at each position; `ctx` resolves ids to names.
  const INLINE = [
    [/\\([^A-Za-z0-9\s])/y, (m) => [m[1]]],
    [/(`+)([\s\S]*?[^`])\1(?!`)/y, (m) => [el("code", null, [m[2]])]],
    [/<@!?(\d+)>/y, (m, ctx) => [el("span", "mention" + (m[1] === ctx.me ? " me" : ""), ["@" + (ctx.users[m[1]] || "unknown-user")])]],
    [/<#(\d+)>/y, (m, ctx) => {
      const mention = el("a", "mention", ["#" + (ctx.channels[m[1]] || "unknown")]);
      mention.href = "#channel=" + m[1]; // the page shows the channel named in its address
      return [mention];
    }],
    [/<@&(\d+)>/y, () => [el("span", "mention", ["@role"])]],
    [/<t:(-?\d+)(?::([tTdDfFR]))?>/y, (m) => [timestamp(Number(m[1]), m[2])]],
    [/<a?:(\w+):\d+>/y, (m) => [":" + m[1] + ":"]],
    [/\[([^\]\n]+)\]\(<?(https?:\/\/[^\s)>]+)>?\)/y, (m, ctx) => {
      const href = safeUrl(m[2]);
      return href ? [link(inline(m[1], ctx), href)] : [m[0]];
    }],
    [/https?:\/\/[^\s<]+[^<.,:;"')\]\s]/y, (m) => {
      const href = safeUrl(m[0]);
      return href ? [link(m[0], href)] : [m[0]];
    }],
    [/\*\*([\s\S]+?)\*\*(?!\*)/y, (m, ctx) => [el("strong", null, [inline(m[1], ctx)])]],
    [/__([\s\S]+?)__(?!_)/y, (m, ctx) => [el("u", null, [inline(m[1], ctx)])]],
    [/\*(?![\s*])([\s\S]*?[^\s\\])\*(?!\*)/y, (m, ctx) => [el("em", null, [inline(m[1], ctx)])]],
    [/_([^_\n]+?)_(?![A-Za-z0-9_])/y, (m, ctx, before) => (/[A-Za-z0-9]/.test(before) ? null : [el("em", null, [inline(m[1], ctx)])])],
    [/~~([\s\S]+?)~~/y, (m, ctx) => [el("s", null, [inline(m[1], ctx)])]],
    [/\|\|([\s\S]+?)\|\|/y, (m, ctx) => {
      const spoiler = el("span", "spoiler", [inline(m[1], ctx)]);
      spoiler.tabIndex = 0;
      spoiler.title = "Spoiler: click to show";
      spoiler.addEventListener("click", () => spoiler.classList.add("shown"));
      return [spoiler];
    }],
  ];

  function inline(text, ctx) {
    const out = document.createDocumentFragment();
    let plain = "";
    let i = 0;
    outer: while (i < text.length) {
      for (const [pattern, make] of INLINE) {
        pattern.lastIndex = i;
        const m = pattern.exec(text);
        if (!m) continue;
        const made = make(m, ctx, i > 0 ? text[i - 1] : "");
        if (!made) continue;
        if (plain) out.append(plain);
        plain = "";
        out.append(...made);
        i += m[0].length;
        continue outer;
      }
      plain += text[i];
      i += 1;
    }
    if (plain) out.append(plain);
    return out;
  }

  // Block rules: code blocks, quotes, headings, subtext, lists, paragraphs.
  function render(text, ctx) {
    const out = el("div", "markdown");
    const lines = (text || "").split("\n");
    let i = 0;
    let paragraph = [];
    const flush = () => {
      if (paragraph.length) out.append(el("p", null, [inline(paragraph.join("\n"), ctx)]));
      paragraph = [];
    };
    while (i < lines.length) {
      const line = lines[i];
      if (line.startsWith("```")) {
        flush();
        const rest = line.slice(3);
        const body = [];
        const end = rest.indexOf("```");
        if (end >= 0) {
          body.push(rest.slice(0, end)); // ```code``` on one line
          i += 1;
        } else {
          if (!/^[\w+-]*$/.test(rest)) body.push(rest); // else a language name, not code
          i += 1;
          for (; i < lines.length && !lines[i].includes("```"); i += 1) body.push(lines[i]);
          if (i < lines.length) body.push(lines[i].slice(0, lines[i].indexOf("```")));
          i += 1;
        }
        out.append(el("pre", null, [el("code", null, [body.join("\n").replace(/\n$/, "")])]));
        continue;
      }
      if (line.startsWith(">>> ")) {
        flush();
        out.append(el("blockquote", null, [render([line.slice(4), ...lines.slice(i + 1)].join("\n"), ctx)]));
        return out;
      }
      if (line.startsWith("> ") || line === ">") {
        flush();
        const quoted = [];
        while (i < lines.length && (lines[i].startsWith("> ") || lines[i] === ">")) {
          quoted.push(lines[i].slice(2));
          i += 1;
        }
        out.append(el("blockquote", null, [render(quoted.join("\n"), ctx)]));
        continue;
      }
      const heading = /^(#{1,3}) (.+)$/.exec(line);
      if (heading) {
        flush();
        out.append(el("h" + (heading[1].length + 2), "heading", [inline(heading[2], ctx)]));
        i += 1;
        continue;
      }
      if (line.startsWith("-# ")) {
        flush();
        out.append(el("p", "subtext", [inline(line.slice(3), ctx)]));
        i += 1;
        continue;
      }
      if (/^\s*[-*] /.test(line) || /^\s*\d+\. /.test(line)) {
        flush();
        const ordered = /^\s*\d+\. /.test(line);
        const list = el(ordered ? "ol" : "ul");
        while (i < lines.length && (ordered ? /^\s*\d+\. /.test(lines[i]) : /^\s*[-*] /.test(lines[i]))) {
          list.append(el("li", null, [inline(lines[i].replace(/^\s*(?:[-*]|\d+\.) /, ""), ctx)]));
          i += 1;
        }
        out.append(list);
        continue;
      }
      paragraph.push(line);
      i += 1;
    }
    flush();
    return out;
  }

  return { render, inline, refresh, el, safeUrl };
})();
