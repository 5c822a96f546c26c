// A payload rendered by its type: JSON and XML pretty-printed, TEXT as it is, RAW as a hex dump.

export function render(kind, payloadType, text) {
  if (kind === 'RAW') {
    return hexDump(text);
  }
  if (payloadType === 'JSON') {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch (e) {
      return text;
    }
  }
  if (payloadType === 'XML') {
    return prettyXml(text);
  }
  return text;
}

function hexDump(hex) {
  const lines = [];
  for (let i = 0; i < hex.length; i += 32) {
    const chunk = hex.slice(i, i + 32);
    const bytes = chunk.match(/../g) || [];
    const ascii = bytes.map(b => { const c = parseInt(b, 16); return c >= 32 && c < 127 ? String.fromCharCode(c) : '.'; }).join('');
    lines.push((i / 2).toString(16).padStart(8, '0') + '  ' + bytes.join(' ').padEnd(48) + '  ' + ascii);
  }
  return lines.join('\n');
}

function prettyXml(text) {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length) {
    return text;
  }
  const out = [];
  const walk = (node, depth) => {
    const pad = '  '.repeat(depth);
    if (node.nodeType === Node.TEXT_NODE) {
      const t = node.nodeValue.trim();
      if (t) out.push(pad + escape(t));
      return;
    }
    if (node.nodeType === Node.COMMENT_NODE) {
      out.push(pad + '<!--' + node.nodeValue + '-->');
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const attrs = Array.from(node.attributes).map(a => ` ${a.name}="${escape(a.value)}"`).join('');
    const children = Array.from(node.childNodes).filter(c => c.nodeType !== Node.TEXT_NODE || c.nodeValue.trim());
    if (children.length === 0) {
      out.push(`${pad}<${node.nodeName}${attrs}/>`);
    } else if (children.length === 1 && children[0].nodeType === Node.TEXT_NODE) {
      out.push(`${pad}<${node.nodeName}${attrs}>${escape(children[0].nodeValue.trim())}</${node.nodeName}>`);
    } else {
      out.push(`${pad}<${node.nodeName}${attrs}>`);
      children.forEach(c => walk(c, depth + 1));
      out.push(`${pad}</${node.nodeName}>`);
    }
  };
  walk(doc.documentElement, 0);
  return out.join('\n');
}

function escape(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
