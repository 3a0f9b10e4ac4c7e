/**
 * The gallery front page (demos/index.html): one card per demo of web/catalogue.js; a concept
 * waiting for an engine feature gets its card with what it waits for, a concept whose page is not
 * written yet says so.
 * @module tribo/web/gallery
 */
import { DEMOS } from './catalogue.js';

const list = document.getElementById('cards');
for (const d of DEMOS) {
  const li = document.createElement('li');
  li.className = `card${d.page ? '' : ' pending'}`;
  const num = d.n ? `<span class="num">${d.n}</span>` : '';
  const title = d.page ? `<a href="${d.page}.html">${d.title}</a>` : d.title;
  const status = d.page ? '' : `<p class="arrives">${d.arrives ?? 'page not written yet'}</p>`;
  li.innerHTML = `<h2>${num}${title}</h2><p>${d.text}</p>${status}`;
  list.append(li);
}
window.gallery = { ready: true, error: null, cards: DEMOS.length };
