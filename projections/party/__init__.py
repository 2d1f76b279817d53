"""The party: characters kept between fights, in a stream of their own."""
