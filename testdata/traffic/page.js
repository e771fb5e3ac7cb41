// The frontend's calls, in the order a user makes them: log in, list the
// movies of a year, open one and its reviews, read who is signed in, and
// write a review. window.result says how it went, for the test.
const api = new URLSearchParams(location.search).get('api');

async function call(method, path, {token, json, form} = {}) {
  const headers = {};
  let body;
  if (token) headers['Authorization'] = 'Bearer ' + token;
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(json);
  }
  if (form) body = new URLSearchParams(form);
  const res = await fetch(api + path, {method, headers, body});
  const data = await res.json();
  if (!res.ok) throw new Error(method + ' ' + path + ': ' + res.status + ' ' + JSON.stringify(data));
  return data;
}

async function main() {
  const login = await call('POST', '/auth/login', {form: {username: 'alice', password: 'wonderland'}});
  const token = login.access_token;
  const movies = await call('GET', '/movies?year=1999&limit=5');
  document.getElementById('movies').innerHTML = movies.map(m => '<li>' + m.title + ' (' + m.year + ')</li>').join('');
  const movie = await call('GET', '/movies/' + encodeURIComponent(movies[0].id));
  const reviews = await call('GET', '/movies/' + encodeURIComponent(movie.id) + '/reviews');
  const me = await call('GET', '/users/me', {token});
  const review = await call('POST', '/reviews', {token, json: {movie_id: movie.id, content: 'Seen it again: still great.'}});
  return {movies: movies.length, movie: movie.title, reviews: reviews.length, me: me.username, review: review.id};
}

window.result = null;
main().then(
  r => { window.result = {ok: true, ...r}; document.getElementById('status').textContent = 'done'; },
  e => { window.result = {ok: false, error: String(e)}; document.getElementById('status').textContent = String(e); },
);
