import { Link } from 'react-router-dom'

export function NotFoundRoute() {
  return (
    <section className="card notice">
      <h1>Page not found</h1>
      <p>We could not find that page. Please check the address you were given.</p>
      <p>
        <Link to="/">Go back to the home page</Link>
      </p>
    </section>
  )
}
